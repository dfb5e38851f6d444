// The contract test's requests for the FunctionsDataTypes operations (/v2 and /v3), every published status of
// each: contract.test.ts validates each response against the reference's schema (/v2) or the notes' (/v3).
import assert from 'node:assert/strict';
import { createStore, openDatabase } from '../../src/store/index.js';
import type { Harness } from '../helpers/harness.js';
import type { ContractCall as Call } from '../helpers/reference-contract.js';
import { TYPED, typedProgram } from '../helpers/samples.js';

const FOR_ANALYSIS = '/v2/analyses/{analysis_id}/functions/data_types';
const FOR_FUNCTION = '/v2/analyses/{analysis_id}/functions/{function_id}/data_types';
const MANY = '/v2/functions/data_types';

/** Every kind of dependency, so the reference's anyOf of them is checked branch by branch. */
const DEPS = [
  {
    name: 'stream',
    size: 16,
    members: { '0x0': { name: 'fd', offset: 0, type: 'int32_t', size: 4 } },
    artifact_type: 'Structure',
  },
  { name: 'mode', members: { READ: 1, WRITE: 2 }, artifact_type: 'Enumeration' },
  { name: 'fd_t', type: 'int32_t', artifact_type: 'TypeDefinition' },
  { addr: 0x13000, name: 'g_count', type: 'int32_t', size: 4, artifact_type: 'GlobalVariable' },
];

export async function exerciseDataTypes(h: Harness, call: Call): Promise<void> {
  const { alice, bob, carol } = h.keys;
  const id = await h.analysis(alice, typedProgram(21));
  const other = await h.analysis(alice, typedProgram(22));
  // Never asked for data types: a source with nothing to copy.
  const blank = await h.analysis(alice, typedProgram(23));
  for (const a of [id, other, blank]) assert.equal(await h.waitForStatus(alice, a), 'Complete');
  const fns = async (analysisId: number) => {
    const r = await h.request('GET', `/v2/analyses/${analysisId}/functions`, alice);
    return new Map((r.json().data.functions as { id: number; vaddr: number }[]).map((f) => [f.vaddr, f.id]));
  };
  const ours = await fns(id);
  const theirs = await fns(other);
  const fid = ours.get(TYPED.f)!;
  const p = { analysis_id: id };
  const fp = { analysis_id: id, function_id: fid };
  const none = { analysis_id: 999999, function_id: fid };

  // /v2: not generated, generate, poll until completed, read, list, edit.
  await call(alice, 'GET', FOR_FUNCTION, 200, { params: fp });
  await call(alice, 'POST', FOR_ANALYSIS, 201, { params: p, body: { function_ids: [fid] } });
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    const r = await h.request('GET', `/v2/analyses/${id}/functions/${fid}/data_types`, alice);
    if (r.json().data.completed) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const read = (await call(alice, 'GET', FOR_FUNCTION, 200, { params: fp })).data as {
    data_types: { func_types: unknown };
    data_types_version: number;
  };
  await call(alice, 'GET', FOR_ANALYSIS, 200, { params: p });
  await call(alice, 'GET', FOR_ANALYSIS, 200, {
    params: p,
    query: `function_ids=${fid}&function_ids=${ours.get(TYPED.h)}`,
  });
  await call(alice, 'POST', MANY, 201, { body: { function_ids: [ours.get(TYPED.g)!, theirs.get(TYPED.g)!] } });
  await call(alice, 'GET', MANY, 200, { query: `function_ids=${fid}&function_ids=${theirs.get(TYPED.g)}` });
  const edit = {
    data_types_version: read.data_types_version,
    data_types: { func_types: read.data_types.func_types, func_deps: DEPS },
  };
  await call(alice, 'PUT', FOR_FUNCTION, 200, { params: fp, body: edit });
  await call(alice, 'PUT', FOR_FUNCTION, 409, { params: fp, body: edit });
  await call(carol, 'PUT', FOR_FUNCTION, 403, { params: fp, body: edit });

  // Not Complete: 409 (the analysis is put back in Processing for the moment).
  const store = createStore(openDatabase(h.config.databaseUrl));
  try {
    await store.analyses.setStatus(other, 'Processing');
    await call(alice, 'POST', FOR_ANALYSIS, 409, { params: { analysis_id: other }, body: { function_ids: [1] } });
    await call(alice, 'POST', MANY, 409, { body: { function_ids: [theirs.get(TYPED.h)!] } });
  } finally {
    await store.analyses.setStatus(other, 'Complete');
    await store.driver.close();
  }

  await call(bob, 'GET', FOR_FUNCTION, 404, { params: fp });
  await call(alice, 'PUT', FOR_FUNCTION, 404, { params: none, body: edit });
  await call(alice, 'POST', FOR_ANALYSIS, 404, { params: { analysis_id: 999999 }, body: { function_ids: [fid] } });
  await call(bob, 'GET', FOR_ANALYSIS, 404, { params: p });
  await call(bob, 'POST', MANY, 404, { body: { function_ids: [fid] } });
  await call(bob, 'GET', MANY, 404, { query: `function_ids=${fid}` });
  await call(alice, 'GET', FOR_FUNCTION, 422, { params: { ...fp, function_id: 'x' } });
  await call(alice, 'PUT', FOR_FUNCTION, 422, { params: fp, body: { data_types_version: 'x' } });
  await call(alice, 'POST', FOR_ANALYSIS, 422, { params: p, body: { function_ids: [] } });
  await call(alice, 'GET', FOR_ANALYSIS, 422, { params: p, query: 'function_ids=x' });
  await call(alice, 'POST', MANY, 422, { body: {} });
  await call(alice, 'GET', MANY, 422, { query: 'function_ids=x' });
  // The history is a Binlens extension: exercised here, checked against its own schema in data-types.test.ts.
  await h.request('GET', `/v2/analyses/${id}/functions/${fid}/data_types/history`, alice);

  await exerciseV3(h, call, { id, other, fid, target: theirs.get(TYPED.f)!, blank: (await fns(blank)).get(TYPED.f)! });
}

async function exerciseV3(
  h: Harness,
  call: Call,
  a: { id: number; other: number; fid: number; target: number; blank: number },
): Promise<void> {
  const { alice, bob, carol } = h.keys;
  const TABLE = '/v3/analyses/{analysis_id}/data-types';
  const USERS = `${TABLE}/{data_type_id}/functions`;
  const SIGNATURE = '/v3/analyses/{analysis_id}/functions/{function_id}/signature';
  const COPY = '/v3/analyses/{analysis_id}/signatures/copy';
  const SIGNATURES = '/v3/functions/signatures';
  const p = { analysis_id: a.id };
  const gone = { analysis_id: 999999 };

  const listed = (await call(alice, 'GET', TABLE, 200, { params: p })) as unknown as {
    items: { data_type_id: number; name: string }[];
  };
  await call(alice, 'GET', TABLE, 404, { params: gone });
  await call(alice, 'GET', TABLE, 422, { params: p, query: 'limit=0' });
  const int = listed.items.find((t) => t.name === 'int32_t')!.data_type_id;

  const defined = {
    data_types: [{ kind: 'ARRAY', name: 'int32_t[4]', size: 16, definition: { type: 'int32_t', count: 4 } }],
  };
  const made = (await call(alice, 'POST', TABLE, 201, { params: p, body: defined })) as unknown as {
    data_types: { data_type_id: number }[];
  };
  await call(alice, 'POST', TABLE, 409, { params: p, body: defined });
  await call(carol, 'POST', TABLE, 403, { params: p, body: defined });
  await call(bob, 'POST', TABLE, 404, { params: p, body: defined });
  await call(alice, 'POST', TABLE, 422, { params: p, body: { data_types: [{ kind: 'NOPE', name: 'x' }] } });

  const array = made.data_types[0]!.data_type_id;
  const redefine = (id: number, name: string) => ({
    data_types: [{ data_type_id: id, kind: 'ARRAY', name, size: 32, definition: { type: 'int32_t', count: 8 } }],
  });
  await call(alice, 'PUT', TABLE, 200, { params: p, body: redefine(array, 'int32_t[8]') });
  await call(alice, 'PUT', TABLE, 409, { params: p, body: redefine(int, 'int32_t[9]') });
  await call(carol, 'PUT', TABLE, 403, { params: p, body: redefine(array, 'x') });
  await call(alice, 'PUT', TABLE, 404, { params: p, body: redefine(999999, 'x') });
  await call(alice, 'PUT', TABLE, 422, { params: p, body: { data_types: [{ kind: 'ARRAY' }] } });

  await call(alice, 'GET', USERS, 200, { params: { ...p, data_type_id: int }, query: 'page_size=1' });
  await call(alice, 'GET', USERS, 404, { params: { ...p, data_type_id: 999999 } });
  await call(alice, 'GET', USERS, 422, { params: { ...p, data_type_id: -1 } });

  const sp = { ...p, function_id: a.fid };
  const signature = { parameters: [{ ordinal: 0, name: 'count', data_type_id: int }], return_data_type_id: int };
  await call(alice, 'PUT', SIGNATURE, 200, { params: sp, body: signature });
  await call(carol, 'PUT', SIGNATURE, 403, { params: sp, body: signature });
  await call(bob, 'PUT', SIGNATURE, 404, { params: sp, body: signature });
  await call(alice, 'PUT', SIGNATURE, 422, { params: sp, body: { parameters: [{ ordinal: -1 }] } });

  const op = { analysis_id: a.other };
  const copy = (source: number) => ({ copies: [{ source_function_id: source, target_function_id: a.target }] });
  await call(alice, 'POST', COPY, 200, { params: op, body: copy(a.fid) });
  await call(alice, 'POST', COPY, 409, { params: op, body: copy(a.blank) });
  await call(carol, 'POST', COPY, 403, { params: op, body: copy(a.fid) });
  await call(bob, 'POST', COPY, 404, { params: op, body: copy(a.fid) });
  await call(alice, 'POST', COPY, 422, { params: op, body: {} });

  await call(alice, 'GET', SIGNATURES, 200, { query: `function_ids=${a.fid},${a.target}&include_data_types=true` });
  await call(bob, 'GET', SIGNATURES, 404, { query: `function_ids=${a.fid}` });
  await call(alice, 'GET', SIGNATURES, 422, { query: 'function_ids=x' });
}
