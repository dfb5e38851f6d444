// AI refinement through the ai-decompilation operations, on both databases, with a loopback
// OpenAI-compatible server standing in for the model: a per-function request gets the model's summary (and
// its placeholder form), a function name and a rewrite that compiles, served with placeholders that still
// resolve; a rewrite that does not compile, a model answering 500 and one too slow all end in success with
// the deterministic C and the reason in ai_refinement and the analysis's log; the whole-analysis request
// asks the model nothing.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import { backends } from '../helpers/backends.js';
import { chatAnswer, startChatServer, type RecordedRequest, type Reply } from '../helpers/chat-completions-server.js';
import { useHarness } from '../helpers/harness.js';
import { isObject, reference, resolveRefs, type Json } from '../helpers/reference-contract.js';
import { TYPED, typedProgram } from '../helpers/samples.js';

interface Task {
  status: string;
  decompilation: string | null;
  raw_decompilation: string | null;
  function_mapping_full: Record<string, Record<string, { name?: string; string?: string; value?: string }>> | null;
  summary?: string | null;
  ai_summary?: string | null;
  raw_ai_summary?: string | null;
  predicted_function_name?: string | null;
  predicted_function_name_confidence?: number | null;
  ai_refinement?: { model: string; refined: boolean; problems: string[] } | null;
  line_addresses?: number[][] | null;
}

const SUMMARY = 'sub_11006 passes 5 and a stack slot to sub_11000 and returns twice what it answers.';
/** A rewrite of sub_11006 that compiles in its unit. */
const REFINED = [
  'int32_t sub_11006(void) {',
  '  int32_t slot = 0;',
  '  int32_t bumped = sub_11000(5, &slot);',
  '  return bumped + bumped;',
  '}',
].join('\n');
const BROKEN = 'int32_t sub_11006(void) {\n  return bumped + ;\n}';

/** How the model answers: well, with a rewrite that does not compile, with HTTP 500, or too late. */
let mode: 'good' | 'broken' | 'error' | 'slow' = 'good';
const CALL_TIMEOUT_MS = 800;

function answer(req: RecordedRequest): Reply {
  if (mode === 'error') return { status: 500, body: { error: { message: 'model overloaded' } } };
  const system = req.body.messages?.[0]?.content ?? '';
  const text = system.includes('You suggest names')
    ? JSON.stringify({ function_name: 'double_stored_value', variables: { rax: 'result' } })
    : system.includes('You rewrite')
      ? '```c\n' + (mode === 'broken' ? BROKEN : REFINED) + '\n```'
      : SUMMARY;
  return { body: chatAnswer(text), ...(mode === 'slow' ? { delayMs: CALL_TIMEOUT_MS * 3 } : {}) };
}

const server = await startChatServer(answer);
after(() => server.close());

/** The reference's schema of the task's GET, when its description is at hand (contract.test.ts says why not). */
const taskSchema = (() => {
  const op = reference?.paths['/v2/functions/{function_id}/ai-decompilation']?.get;
  const content =
    isObject(op) && isObject(op.responses) && isObject(op.responses['200']) && op.responses['200'].content;
  const schema = isObject(content) && isObject(content['application/json']) && content['application/json'].schema;
  return reference && schema
    ? new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(
        resolveRefs(schema, reference) as object,
      )
    : null;
})();

/** The raw form with every placeholder spelled out; fails on a token no map resolves. */
function resolved(raw: string, m: NonNullable<Task['function_mapping_full']>): string {
  const spelled = new Map<string, string>();
  for (const map of Object.values(m))
    for (const [t, v] of Object.entries(map)) spelled.set(t, v.name ?? v.string ?? v.value ?? '');
  return raw.replace(/<[A-Z_]+_\d+>/g, (t) => {
    assert.ok(spelled.has(t), `${t} resolves through function_mapping_full`);
    return spelled.get(t)!;
  });
}

for (const backend of backends) {
  describe(`ai refinement (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const llm = {
      kind: 'chat-completions',
      url: server.url,
      apiKey: 'test-llm-key',
      model: 'test-model',
      timeoutMs: CALL_TIMEOUT_MS,
    } as const;
    const h = useHarness(backend, { llm });
    let analysis = 0;
    const fns = new Map<number, number>();
    let renames = 0;

    const path = (fid: number) => `/v2/functions/${fid}/ai-decompilation`;
    const get = async (fid: number) => {
      const body = (await h().request('GET', path(fid), h().keys.alice)).json() as Json;
      if (taskSchema) assert.ok(taskSchema(body), JSON.stringify(taskSchema.errors));
      return (body as unknown as { data: Task }).data;
    };
    /** POSTs the function and polls until its task is no longer pending. */
    const decompiled = async (vaddr: number) => {
      const post = await h().request('POST', path(fns.get(vaddr)!), h().keys.alice);
      assert.equal(post.statusCode, 201, post.body);
      for (const deadline = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 25))) {
        const t = await get(fns.get(vaddr)!);
        if (t.status !== 'pending' || Date.now() > deadline) return t;
      }
    };
    /** A rename makes every result of the analysis stale, so the next request decompiles again. */
    const makeStale = async () => {
      const r = await h().request('POST', `/v2/functions/rename/${fns.get(TYPED.k)!}`, h().keys.alice, {
        new_name: `renamed_${++renames}`,
        new_mangled_name: `renamed_${renames}`,
      });
      assert.equal(r.statusCode, 200, r.body);
    };
    /** Asserts the analysis's log gets a line matching `line` (the job's closing line follows the result). */
    const logged = async (line: RegExp) => {
      for (const deadline = Date.now() + 10_000; ; await new Promise((r) => setTimeout(r, 25))) {
        const text = (await h().request('GET', `/v2/analyses/${analysis}/logs`, h().keys.alice)).json().data
          .logs as string;
        if (line.test(text) || Date.now() > deadline) return assert.match(text, line);
      }
    };

    test('setup: an analysis completes', async () => {
      mode = 'good';
      analysis = await h().analysis(h().keys.alice, typedProgram(41));
      assert.equal(await h().waitForStatus(h().keys.alice, analysis), 'Complete');
      const list = (await h().request('GET', `/v2/analyses/${analysis}/functions`, h().keys.alice)).json().data
        .functions as { id: number; vaddr: number }[];
      for (const f of list) fns.set(f.vaddr, f.id);
    });

    test('the whole-analysis request asks the model nothing', async () => {
      const before = server.requests.length;
      const r = await h().request('POST', `/v2/analyses/${analysis}/functions/ai-decompilation`, h().keys.alice);
      assert.equal(r.statusCode, 201, r.body);
      for (;;) {
        const t = await get(fns.get(TYPED.h)!);
        if (t.status !== 'pending') {
          assert.equal(t.status, 'success');
          assert.equal(t.ai_refinement, null);
          assert.equal(t.ai_summary, null);
          break;
        }
        await new Promise((res) => setTimeout(res, 25));
      }
      assert.equal(server.requests.length, before);
    });

    test("a per-function request: the model's summary, name and a rewrite that compiles, placeholders resolving", async () => {
      const before = server.requests.length;
      const t = await decompiled(TYPED.g);
      assert.equal(t.status, 'success', JSON.stringify(t));
      assert.deepEqual(t.ai_refinement, {
        model: `chat completions at ${server.url} (model test-model)`,
        refined: true,
        problems: [],
      });
      assert.equal(t.decompilation, REFINED);
      assert.equal(t.line_addresses, null, "the decompiler's line map does not describe the rewrite");
      assert.equal(resolved(t.raw_decompilation!, t.function_mapping_full!), REFINED);
      assert.match(t.raw_decompilation!, /= <DISASM_FUNCTION_\d+>\(5, &<VAR_\d+>\)/, 'the callee and locals as tokens');
      assert.equal(t.ai_summary, SUMMARY);
      assert.ok(!t.raw_ai_summary!.includes('sub_11000'), t.raw_ai_summary!);
      assert.equal(resolved(t.raw_ai_summary!, t.function_mapping_full!), SUMMARY);
      assert.equal(t.predicted_function_name, 'double_stored_value');
      assert.equal(t.predicted_function_name_confidence, null, "the model's guess has no confidence");
      assert.match(t.summary!, /^sub_11006 is called by/, 'the deterministic summary stays');
      // Three questions (summary, names, rewrite), each to the configured model with the key.
      const asked = server.requests.slice(before);
      assert.equal(asked.length, 3);
      for (const r of asked) {
        assert.equal(r.path, '/v1/chat/completions');
        assert.equal(r.headers.authorization, 'Bearer test-llm-key');
        assert.equal(r.body.model, 'test-model');
      }
      // Its callee, decompiled on the way, was not asked for: no model part.
      assert.equal((await get(fns.get(TYPED.f)!)).ai_refinement, null);
      await logged(/functions decompiled in \d+ ms; 1 with chat completions at .*, 1 refined/);
    });

    test('a result made without the model is made again with it when the function is asked for', async () => {
      const before = server.requests.length;
      const t = await decompiled(TYPED.h);
      assert.equal(t.status, 'success');
      assert.equal(t.ai_summary, SUMMARY);
      assert.ok(server.requests.length > before);
    });

    test("a rewrite that does not compile: the decompiler's C (the names through the maps), the reason recorded", async () => {
      await makeStale();
      mode = 'broken';
      const t = await decompiled(TYPED.g);
      assert.equal(t.status, 'success', JSON.stringify(t));
      assert.equal(t.ai_refinement!.refined, false);
      assert.equal(t.ai_refinement!.problems.length, 1);
      assert.match(t.ai_refinement!.problems[0]!, /^refinement: the refined function does not compile: line 2/);
      assert.match(t.decompilation!, /^int32_t sub_11006\(void\) \{\n {2}uint64_t result = 0, rsp = 0;/);
      assert.ok(!/\brax\b/.test(t.decompilation!), 'the suggested name replaces rax everywhere');
      assert.equal(resolved(t.raw_decompilation!, t.function_mapping_full!), t.decompilation);
      assert.equal(t.line_addresses!.length, t.decompilation!.split('\n').length, 'renamed, the lines are the same');
      assert.equal(t.ai_summary, SUMMARY);
      await logged(/Decompilation: sub_11006: model: refinement: the refined function does not compile/);
    });

    test('a model answering 500: success with the deterministic C, each reason recorded', async () => {
      await makeStale();
      mode = 'error';
      const t = await decompiled(TYPED.g);
      assert.equal(t.status, 'success', JSON.stringify(t));
      assert.match(t.decompilation!, /^int32_t sub_11006\(void\) \{\n {2}uint64_t rax = 0, rsp = 0;/);
      assert.equal(resolved(t.raw_decompilation!, t.function_mapping_full!), t.decompilation);
      assert.equal(t.ai_summary, null);
      assert.equal(t.raw_ai_summary, null);
      assert.equal(t.predicted_function_name, null);
      const problems = t.ai_refinement!.problems;
      assert.deepEqual(
        problems.map((p) => p.split(':')[0]),
        ['summary', 'names', 'refinement'],
      );
      for (const p of problems) assert.match(p, /500/);
      await logged(/Decompilation: sub_11006: model: summary: .*500/);
    });

    test('a model slower than the time-out: success with the deterministic C, the time-out recorded', async () => {
      await makeStale();
      mode = 'slow';
      const t = await decompiled(TYPED.g);
      assert.equal(t.status, 'success', JSON.stringify(t));
      assert.match(t.decompilation!, /uint64_t rax = 0, rsp = 0;/);
      assert.equal(t.ai_summary, null);
      assert.equal(t.ai_refinement!.problems.length, 3);
      for (const p of t.ai_refinement!.problems) assert.match(p, new RegExp(`within ${CALL_TIMEOUT_MS} ms`));
    });
  });
}
