// The contract test's requests for the FunctionsAIDecompilation operations, every published status of each:
// contract.test.ts validates each response against the reference's schema.
import assert from 'node:assert/strict';
import { createStore, openDatabase } from '../../src/store/index.js';
import type { Harness } from '../helpers/harness.js';
import type { ContractCall as Call } from '../helpers/reference-contract.js';
import { TYPED, typedProgram } from '../helpers/samples.js';

const TASK = '/v2/functions/{function_id}/ai-decompilation';
const STATUS = `${TASK}/status`;
const RATING = `${TASK}/rating`;
const COMMENTS = `${TASK}/comments`;
const COMMENT = `${COMMENTS}/{comment_id}`;
const ACCEPT = '/v3/functions/{function_id}/ai-decompilation/type-suggestions/accept';

export async function exerciseAiDecompilation(h: Harness, call: Call): Promise<void> {
  const { alice, bob, carol } = h.keys;
  const id = await h.analysis(alice, typedProgram(41));
  assert.equal(await h.waitForStatus(alice, id), 'Complete');
  const r = await h.request('GET', `/v2/analyses/${id}/functions`, alice);
  const fns = new Map((r.json().data.functions as { id: number; vaddr: number }[]).map((f) => [f.vaddr, f.id]));
  const p = { function_id: fns.get(TYPED.g)! };
  const bad = { function_id: 'x' };

  await call(alice, 'GET', TASK, 200, { params: p });
  await call(alice, 'POST', TASK, 201, { params: p });
  for (const deadline = Date.now() + 30_000; Date.now() < deadline;) {
    const t = await h.request('GET', `/v2/functions/${p.function_id}/ai-decompilation`, alice);
    if (t.json().data.status !== 'pending') break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const done = await call(alice, 'GET', TASK, 200, { params: p, query: 'summarise=false' });
  assert.equal(done.data!.status, 'success');
  await call(alice, 'GET', STATUS, 200, { params: p });
  for (const [method, template] of [
    ['GET', TASK],
    ['POST', TASK],
    ['GET', STATUS],
    ['GET', RATING],
    ['GET', COMMENTS],
  ] as const) {
    await call(bob, method, template, 404, { params: p });
    await call(alice, method, template, 422, { params: bad });
  }

  const store = createStore(openDatabase(h.config.databaseUrl));
  try {
    await store.analyses.setStatus(id, 'Processing');
    await call(alice, 'POST', TASK, 409, { params: { function_id: fns.get(TYPED.h)! } });
  } finally {
    await store.analyses.setStatus(id, 'Complete');
    await store.driver.close();
  }

  await call(alice, 'GET', RATING, 200, { params: p });
  await call(alice, 'PATCH', RATING, 201, { params: p, body: { rating: 'POSITIVE', reason: 'clear' } });
  await call(alice, 'GET', RATING, 200, { params: p });
  await call(bob, 'PATCH', RATING, 404, { params: p, body: { rating: 'POSITIVE', reason: null } });
  await call(alice, 'PATCH', RATING, 422, { params: p, body: { rating: 'GOOD' } });

  const made = await call(alice, 'POST', COMMENTS, 201, {
    params: p,
    body: { content: 'the call', context: { start_line: 1, end_line: 2 } },
  });
  const c = { ...p, comment_id: made.data!.id as number };
  await call(alice, 'GET', COMMENTS, 200, { params: p });
  await call(alice, 'POST', COMMENTS, 400, { params: p, body: { content: ' ' } });
  await call(bob, 'POST', COMMENTS, 404, { params: p, body: { content: 'x' } });
  await call(alice, 'POST', COMMENTS, 422, { params: p, body: {} });
  await call(alice, 'PATCH', COMMENT, 200, { params: c, body: { content: 'the call to f' } });
  await call(alice, 'PATCH', COMMENT, 400, { params: c, body: { content: '' } });
  await call(carol, 'PATCH', COMMENT, 403, { params: c, body: { content: 'mine now' } });
  await call(bob, 'PATCH', COMMENT, 404, { params: c, body: { content: 'x' } });
  await call(alice, 'PATCH', COMMENT, 422, { params: c, body: {} });
  await call(carol, 'DELETE', COMMENT, 403, { params: c });
  await call(bob, 'DELETE', COMMENT, 404, { params: c });
  await call(alice, 'DELETE', COMMENT, 422, { params: { ...c, comment_id: 0 } });
  await call(alice, 'DELETE', COMMENT, 200, { params: c });
  await call(alice, 'DELETE', COMMENT, 400, { params: c });
  // /v3: accept the types it declares; the edit makes the decompilation stale, so a second accept is a 409.
  await call(carol, 'POST', ACCEPT, 403, { params: p, body: { keys: ['return'] } });
  await call(bob, 'POST', ACCEPT, 404, { params: p, body: { keys: ['return'] } });
  await call(alice, 'POST', ACCEPT, 422, { params: p, body: { keys: ['nope'] } });
  await call(alice, 'POST', ACCEPT, 200, { params: p, body: { keys: ['return'] } });
  await call(alice, 'POST', ACCEPT, 409, { params: p, body: { keys: ['return'] } });
  // The whole-analysis request is a Binlens extension: exercised here, checked in ai-decompilation.test.ts.
  await h.request('POST', `/v2/analyses/${id}/functions/ai-decompilation`, alice);
}
