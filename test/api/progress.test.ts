// Live progress of a running analysis: polling status, analysis-stages and logs of a large corpus binary shows
// the analysis moving (stage events and a rising percentage) before it is Complete; the events stream shows
// the same as it happens.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { CORPUS } from '../helpers/engine/disasm.js';
import { backends } from '../helpers/backends.js';
import { useHarness } from '../helpers/harness.js';
import { elf64 } from '../helpers/samples.js';

const LARGE = path.join(CORPUS, 'bin', 'debian', 'debian-zlib-bzip2-zstd_linux-x86_64_gcc12_O2_stripped');
const missing = existsSync(LARGE) ? null : `${LARGE} is not present (../shared/corpus)`;
const ALL = { analysis_config: { generate_capabilities: true, generate_sbom: true } };

/** The events of a text/event-stream body: name and parsed data, in order (comments dropped). */
function serverSentEvents(body: string): { event: string; data: Record<string, unknown> }[] {
  return body
    .split('\n\n')
    .filter((block) => block.startsWith('event: '))
    .map((block) => {
      const [event, data] = block.split('\n');
      return { event: event!.slice('event: '.length), data: JSON.parse(data!.slice('data: '.length)) };
    });
}

for (const backend of backends) {
  describe(`analysis events stream (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);

    test('GET …/events streams stages, log lines and status changes, and ends when the analysis does', async () => {
      const id = await h().analysis(h().keys.alice, elf64(21));
      const r = await h().request('GET', `/v2/analyses/${id}/events`, h().keys.alice);
      assert.equal(r.statusCode, 200);
      assert.match(String(r.headers['content-type']), /^text\/event-stream/);
      const events = serverSentEvents(r.body);
      const stages = events.filter((e) => e.event === 'stage').map((e) => `${e.data.stage}:${e.data.status}`);
      assert.deepEqual(stages.slice(0, 2), ['ANALYSIS:QUEUED', 'ANALYSIS:STARTED']);
      assert.equal(stages.at(-1), 'POST_PROCESSING:FINISHED');
      assert.ok(events.some((e) => e.event === 'log' && /^Recovering functions \(\d+%\)$/.test(String(e.data.line))));
      assert.deepEqual(events.at(-1), { event: 'status', data: { analysis_id: id, analysis_status: 'Complete' } });
      // The same as polling shows.
      const polled = (await h().request('GET', `/v2/analysis-stages/${id}`, h().keys.alice)).json().data.events;
      assert.equal(polled.length, stages.length);
    });

    test("another user's analysis, or none: 404 in the envelope, no stream", async () => {
      const id = await h().analysis(h().keys.alice, elf64(22));
      for (const [key, url] of [
        [h().keys.bob, `/v2/analyses/${id}/events`],
        [h().keys.alice, '/v2/analyses/999999/events'],
      ] as const) {
        const r = await h().request('GET', url, key);
        assert.equal(r.statusCode, 404, url);
        assert.equal(r.json().status, false);
      }
    });
  });

  describe(`analysis events stream, no workers (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend, { workers: 0 });

    test('an analysis deleted while watched ends its stream, after what was already written', async () => {
      const id = await h().analysis(h().keys.alice, elf64(23));
      const watching = h().request('GET', `/v2/analyses/${id}/events`, h().keys.alice);
      await new Promise((r) => setTimeout(r, 700));
      const deleted = await h().request('DELETE', `/v2/analyses/${id}`, h().keys.alice);
      assert.equal(deleted.statusCode, 200);
      const r = await watching;
      assert.equal(r.statusCode, 200);
      const events = serverSentEvents(r.body);
      assert.deepEqual(
        [events[0]?.event, events[0]?.data.stage, events[0]?.data.status],
        ['stage', 'ANALYSIS', 'QUEUED'],
      );
      assert.deepEqual(events.at(-1), { event: 'status', data: { analysis_id: id, analysis_status: 'Queued' } });
    });
  });

  describe(`live progress (${backend.name})`, { skip: backend.skip ?? missing ?? false }, () => {
    const h = useHarness(backend);

    test('stage events, log lines and the percentage appear while the analysis runs', async () => {
      const key = h().keys.alice;
      const id = await h().analysis(key, readFileSync(LARGE), ALL);
      const events = new Set<string>();
      const percents: number[] = [];
      const logLines = new Set<string>();
      const deadline = Date.now() + 120_000;
      for (;;) {
        const status = (await h().request('GET', `/v2/analyses/${id}/status`, key)).json().data;
        if (status.analysis_status === 'Complete' || status.analysis_status === 'Error') break;
        assert.ok(Date.now() < deadline, 'the analysis did not finish in 120 s');
        const stages = (await h().request('GET', `/v2/analysis-stages/${id}`, key)).json().data.events as {
          stage: string;
          status: string;
        }[];
        for (const e of stages) events.add(`${e.stage}:${e.status}`);
        if (status.progress !== undefined && status.progress !== percents.at(-1)) percents.push(status.progress);
        const logs = (await h().request('GET', `/v2/analyses/${id}/logs`, key)).json().data.logs as string;
        for (const line of logs.split('\n')) if (/\(\d+%\)$/.test(line)) logLines.add(line.replace(/^\S+ /, ''));
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(await h().waitForStatus(key, id), 'Complete');
      assert.ok(events.size >= 4, `stage events seen before Complete: ${[...events].join(', ')}`);
      assert.ok(percents.length >= 3, `percentages seen before Complete: ${percents.join(', ')}`);
      assert.deepEqual(
        percents,
        [...percents].sort((a, b) => a - b),
        'the percentage only rises',
      );
      assert.ok(logLines.size >= 4, `stage log lines seen before Complete: ${[...logLines].join(' | ')}`);
    });
  });
}
