// Operations that change an analysis: update, delete (single and bulk), tags, logs, comments, requeue, strings.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { backends } from '../helpers/backends.js';
import { useHarness } from '../helpers/harness.js';
import { elf64 } from '../helpers/samples.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

for (const backend of backends) {
  describe(`operations: changing an analysis (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    let tag = 1000;
    /** A fresh, finished analysis of alice's. */
    const fresh = async (extra: Record<string, unknown> = {}) => {
      const id = await h().analysis(h().keys.alice, elf64(tag++), extra);
      assert.equal(await h().waitForStatus(h().keys.alice, id), 'Complete');
      return id;
    };
    const call = async (method: string, url: string, body?: unknown, status = 200) => {
      const r = await h().request(method, url, h().keys.alice, body);
      assert.equal(r.statusCode, status, `${method} ${url}: ${r.body}`);
      return r.json();
    };
    const tagNames = async (id: number) =>
      ((await call('GET', `/v2/analyses/${id}/tags`)).data.analysis_tags as { name: string }[]).map((t) => t.name);

    test('PATCH update changes binary_name and analysis_scope and returns the detail', async () => {
      const id = await fresh();
      const body = await call('PATCH', `/v2/analyses/${id}`, { binary_name: 'renamed.elf', analysis_scope: 'PUBLIC' });
      assert.equal(body.status, true);
      const d = body.data;
      assert.match(d.creation, ISO);
      assert.deepEqual(
        { ...d, creation: '', sha_256_hash: '' },
        {
          access: { owner: true, username: 'alice' },
          analysis_id: id,
          analysis_scope: 'PUBLIC',
          architecture: 'x86_64',
          binary_dynamic: false,
          binary_format: 'elf',
          binary_name: 'renamed.elf',
          binary_size: 512,
          binary_type: 'executable',
          creation: '',
          dashboard_url: `/analyses/${id}`,
          debug: false,
          model_name: 'binnet-0.7-x86-64-linux',
          sbom: null,
          sha_256_hash: '',
          auto_run_agents: { triage: false },
        },
      );
      const basic = (await call('GET', `/v2/analyses/${id}/basic`)).data;
      assert.equal(basic.binary_name, 'renamed.elf');
      assert.equal(basic.analysis_scope, 'PUBLIC');
      // Each field on its own; an absent or null field is left as it is.
      assert.equal(
        (await call('PATCH', `/v2/analyses/${id}`, { analysis_scope: 'PRIVATE' })).data.binary_name,
        'renamed.elf',
      );
      const nameOnly = (await call('PATCH', `/v2/analyses/${id}`, { binary_name: 'again.elf', analysis_scope: null }))
        .data;
      assert.deepEqual([nameOnly.binary_name, nameOnly.analysis_scope], ['again.elf', 'PRIVATE']);
      const nothing = (await call('PATCH', `/v2/analyses/${id}`, {})).data;
      assert.deepEqual([nothing.binary_name, nothing.analysis_scope], ['again.elf', 'PRIVATE']);
    });

    test('DELETE, then every read of it → 404', async () => {
      const id = await fresh();
      const body = await call('DELETE', `/v2/analyses/${id}`);
      assert.deepEqual(body, { status: true, data: {}, message: 'Analysis deleted', errors: [], meta: {} });
      for (const url of [`/v2/analyses/${id}/status`, `/v2/analyses/${id}/basic`, `/v2/analyses/${id}/logs`]) {
        const r = await h().request('GET', url, h().keys.alice);
        assert.equal(r.statusCode, 404, url);
        assert.equal(r.json().message, `Analysis with ID ${id} could not be found`);
      }
      assert.ok(
        !(await call('GET', '/v2/analyses/list?limit=50')).data.results.some(
          (r: { analysis_id: number }) => r.analysis_id === id,
        ),
      );
      assert.equal((await h().request('DELETE', `/v2/analyses/${id}`, h().keys.alice)).statusCode, 404);
    });

    test('bulk delete removes all the given analyses', async () => {
      const ids = [await fresh(), await fresh(), await fresh()];
      const keep = await fresh();
      const body = await call('PATCH', '/v2/analyses/delete', { analysis_ids: [ids[0], ids[1], ids[2], ids[0]] });
      assert.deepEqual(body, { status: true, data: {}, message: 'Analyses deleted', errors: [], meta: {} });
      for (const id of ids)
        assert.equal((await h().request('GET', `/v2/analyses/${id}/status`, h().keys.alice)).statusCode, 404);
      assert.equal((await call('GET', `/v2/analyses/${keep}/status`)).data.analysis_status, 'Complete');
    });

    test('bulk tag add adds to every analysis and keeps existing tags', async () => {
      const x = await fresh({ tags: [{ name: 'old' }] });
      const y = await fresh();
      const body = await call('PATCH', '/v2/analyses/tags/add', { analysis_ids: [x, y], tags: ['new', 'old', 'new'] });
      assert.deepEqual(body.data, {
        results: [
          { analysis_id: x, message: 'Tags added', error: null },
          { analysis_id: y, message: 'Tags added', error: null },
        ],
      });
      assert.deepEqual(await tagNames(x), ['new', 'old']);
      assert.deepEqual(await tagNames(y), ['new', 'old']);
    });

    test('PATCH tags replaces the tags; GET tags reads them', async () => {
      const id = await fresh({ tags: [{ name: 'one' }, { name: 'two' }] });
      const body = await call('PATCH', `/v2/analyses/${id}/tags`, { tags: ['three', 'two', 'three'] });
      assert.deepEqual(body.data, {
        tags: [
          { name: 'three', origin: 'USER' },
          { name: 'two', origin: 'USER' },
        ],
      });
      assert.deepEqual((await call('GET', `/v2/analyses/${id}/tags`)).data, {
        analysis_tags: [
          { name: 'three', origin: 'USER', collection_id: null },
          { name: 'two', origin: 'USER', collection_id: null },
        ],
      });
      await call('PATCH', `/v2/analyses/${id}/tags`, { tags: [] });
      assert.deepEqual(await tagNames(id), []);
    });

    test('POST logs (201) appends a line that GET logs shows', async () => {
      const id = await fresh();
      const body = await call('POST', `/v2/analyses/${id}/logs`, { log: 'triaged by alice' }, 201);
      assert.deepEqual(body, { status: true, data: null, message: 'Log inserted', errors: [], meta: {} });
      await call('POST', `/v2/analyses/${id}/logs`, { log: 'second note' }, 201);
      const lines = ((await call('GET', `/v2/analyses/${id}/logs`)).data.logs as string).split('\n');
      assert.match(lines.at(-2) ?? '', /^\S+Z triaged by alice$/);
      assert.match(lines.at(-1) ?? '', /^\S+Z second note$/);
    });

    test('comments: create (201), list, update, delete', async () => {
      const id = await fresh();
      const url = `/v2/analyses/${id}/comments`;
      assert.deepEqual((await call('GET', url)).data, []);
      const me = (await call('GET', '/v2/users/me')).data;
      const created = await call('POST', url, { content: 'looks packed' }, 201);
      const c = created.data;
      assert.equal(created.status, true);
      assert.deepEqual(
        {
          content: c.content,
          user_id: c.user_id,
          username: c.username,
          resource_type: c.resource_type,
          resource_id: c.resource_id,
        },
        {
          content: 'looks packed',
          user_id: me.user_id,
          username: 'alice',
          resource_type: 'analysis',
          resource_id: String(id),
        },
      );
      assert.ok(Number.isInteger(c.id) && c.id >= 1);
      assert.match(c.created_at, ISO);
      const second = (await call('POST', url, { content: 'UPX 3.96' }, 201)).data;
      assert.deepEqual(
        (await call('GET', url)).data.map((x: { id: number; content: string }) => [x.id, x.content]),
        [
          [c.id, 'looks packed'],
          [second.id, 'UPX 3.96'],
        ],
      );
      // carol shares alice's team, so she sees the analysis and may comment; each comment names its author.
      const carols = await h().request('POST', url, h().keys.carol, { content: 'agreed' });
      assert.equal(carols.statusCode, 201, carols.body);
      assert.deepEqual(
        (await call('GET', url)).data.map((x: { content: string; username: string }) => [x.content, x.username]),
        [
          ['looks packed', 'alice'],
          ['UPX 3.96', 'alice'],
          ['agreed', 'carol'],
        ],
      );
      await call('DELETE', `${url}/${carols.json().data.id}`, undefined, 403);
      assert.equal((await h().request('DELETE', `${url}/${carols.json().data.id}`, h().keys.carol)).statusCode, 200);
      const updated = (await call('PATCH', `${url}/${c.id}`, { content: 'packed with UPX' })).data;
      assert.deepEqual(
        [updated.id, updated.content, updated.created_at, updated.username],
        [c.id, 'packed with UPX', c.created_at, 'alice'],
      );
      assert.ok(Date.parse(updated.updated_at) >= Date.parse(c.updated_at));
      const del = await call('DELETE', `${url}/${c.id}`);
      assert.deepEqual(del, { status: true, data: true, message: 'Success', errors: [], meta: {} });
      assert.deepEqual(
        (await call('GET', url)).data.map((x: { id: number }) => x.id),
        [second.id],
      );
      // A deleted comment cannot be edited or deleted again (400, as the spec's failure case).
      assert.equal((await h().request('DELETE', `${url}/${c.id}`, h().keys.alice)).statusCode, 400);
      assert.equal((await h().request('PATCH', `${url}/${c.id}`, h().keys.alice, { content: 'x' })).statusCode, 400);
      // Deleting the analysis takes its comments with it.
      await call('DELETE', `/v2/analyses/${id}`);
      assert.equal((await h().request('GET', url, h().keys.alice)).statusCode, 404);
    });

    test('requeue (201) runs the analysis again: Queued, then Complete, with new stages and logs', async () => {
      const id = await fresh();
      const binaryId = (await call('GET', `/v2/analyses/${id}/basic`)).data.binary_id;
      const body = await call('POST', `/v2/analyses/${id}/requeue`, { tags: ['again'] }, 201);
      assert.deepEqual(body.data, { analysis_id: id, binary_id: binaryId, reference: `analysis/${id}` });
      assert.equal(await h().waitForStatus(h().keys.alice, id), 'Complete');
      const stages = (await call('GET', `/v2/analysis-stages/${id}`)).data.events.map(
        (e: { stage: string; status: string }) => `${e.stage}:${e.status}`,
      ) as string[];
      // Each run: queued, then the three stages started and finished in turn.
      const run = [
        'ANALYSIS:QUEUED',
        ...['ANALYSIS', 'INFERENCE', 'POST_PROCESSING'].flatMap((s) => [`${s}:STARTED`, `${s}:FINISHED`]),
      ];
      assert.deepEqual(stages, [...run, ...run]);
      const logs = (await call('GET', `/v2/analyses/${id}/logs`)).data.logs as string;
      assert.equal(logs.match(/Z Analysis started/g)?.length, 2);
      assert.equal(logs.match(/Z Analysis complete/g)?.length, 2);
      assert.deepEqual(await tagNames(id), ['again']);
      // With another model of the spec's list.
      await call('POST', `/v2/analyses/${id}/requeue`, { model_name: 'binnet-0.7-x86-64-windows' }, 201);
      assert.equal(await h().waitForStatus(h().keys.alice, id), 'Complete');
      assert.equal((await call('GET', `/v2/analyses/${id}/basic`)).data.model_name, 'binnet-0.7-x86-64-windows');
    });

    test('PUT strings (201); a vaddr that already holds a string rejects the whole request (409)', async () => {
      const id = await fresh();
      const url = `/v2/analyses/${id}/strings`;
      const put = (strings: { value: string; vaddr: number; source: string }[]) =>
        h().request('PUT', url, h().keys.alice, { strings });
      const first = await put([
        { value: 'GetProcAddress', vaddr: 0x1000, source: 'USER' },
        { value: 'kernel32.dll', vaddr: 0x1010, source: 'AI_AGENT' },
      ]);
      assert.equal(first.statusCode, 201, first.body);
      assert.deepEqual(first.json(), { status: true, data: null, message: 'Strings added', errors: [], meta: {} });

      const clash = await put([
        { value: 'new one', vaddr: 0x2000, source: 'USER' },
        { value: 'again', vaddr: 0x1010, source: 'USER' },
      ]);
      assert.equal(clash.statusCode, 409, clash.body);
      assert.equal(clash.json().status, false);
      assert.equal(clash.json().errors[0].code, '409');
      // Nothing of the refused request was kept: 0x2000 is still free.
      assert.equal((await put([{ value: 'new one', vaddr: 0x2000, source: 'SYSTEM' }])).statusCode, 201);

      const dup = await put([
        { value: 'a', vaddr: 0x3000, source: 'USER' },
        { value: 'b', vaddr: 0x3000, source: 'USER' },
      ]);
      assert.equal(dup.statusCode, 409, dup.body);
      assert.equal((await put([{ value: 'a', vaddr: 0x3000, source: 'USER' }])).statusCode, 201);
      assert.equal((await put([])).statusCode, 201);
    });
  });
}
