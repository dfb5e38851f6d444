// Live progress of a running analysis: polling status, analysis-stages and logs of a large corpus binary shows
// the analysis moving (stage events and a rising percentage) before it is Complete.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { CORPUS } from '../helpers/engine/disasm.js';
import { backends } from '../helpers/backends.js';
import { useHarness } from '../helpers/harness.js';

const LARGE = path.join(CORPUS, 'bin', 'debian', 'debian-zlib-bzip2-zstd_linux-x86_64_gcc12_O2_stripped');
const missing = existsSync(LARGE) ? null : `${LARGE} is not present (../shared/corpus)`;
const ALL = { analysis_config: { generate_capabilities: true, generate_sbom: true } };

for (const backend of backends) {
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
