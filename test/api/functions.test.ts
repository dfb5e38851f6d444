// Functions, func_maps, details, call graph, strings and xrefs of a real (synthetic) program, on both
// databases: consistency between the views, pagination, filters, and plugin-supplied boundaries.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { PROGRAM, sampleProgram, withoutSymtab } from '../helpers/engine/sample-program.js';
import { analyze } from '../../src/engine/index.js';
import { dequantiseVector } from '../../src/shared/simhash.js';
import { backends } from '../helpers/backends.js';
import { useHarness } from '../helpers/harness.js';

const program = () => Buffer.from(sampleProgram({ bits: 64, little: true, machine: 62 }));

interface Dest {
  destination_block_id: number | null;
  flowtype: string;
  vaddr: string;
}

interface Fn {
  id: number;
  name: string;
  vaddr: number;
  size: number;
  name_source_type: string;
  debug: boolean;
  mangled_name: string;
}

for (const backend of backends) {
  describe(`functions API (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    let id: number;
    let all: Fn[];

    before(async () => {
      if (backend.skip) return;
      id = await h().analysis(h().keys.alice, program());
      assert.equal(await h().waitForStatus(h().keys.alice, id), 'Complete');
      all = (await h().request('GET', `/v2/analyses/${id}/functions`, h().keys.alice)).json().data.functions;
    });

    test('symbols name functions; the list is ordered by address; basic counts them', async () => {
      const named = Object.fromEntries(all.filter((f) => !f.name.startsWith('sub_')).map((f) => [f.name, f.vaddr]));
      assert.equal(named._start, PROGRAM.start);
      assert.equal(named.exported_fn, PROGRAM.exported);
      assert.equal(named.local_fn, PROGRAM.local);
      assert.deepEqual(
        all.map((f) => f.vaddr),
        [...all.map((f) => f.vaddr)].sort((a, b) => a - b),
      );
      const start = all.find((f) => f.name === '_start')!;
      assert.deepEqual([start.name_source_type, start.debug, start.mangled_name], ['SYSTEM', true, '_start']);
      const basic = (await h().request('GET', `/v2/analyses/${id}/basic`, h().keys.alice)).json().data;
      assert.equal(basic.function_count, all.length);
    });

    test('pages: page_size and page walk the same list; has_next_page says when to stop', async () => {
      const walked: number[] = [];
      for (let page = 1; ; page++) {
        const r = (
          await h().request('GET', `/v2/analyses/${id}/functions?page=${page}&page_size=7`, h().keys.alice)
        ).json();
        walked.push(...r.data.functions.map((f: Fn) => f.id));
        assert.deepEqual(r.meta.pagination, {
          page_size: 7,
          page_number: page,
          has_next_page: walked.length < all.length,
        });
        if (!r.meta.pagination.has_next_page) break;
      }
      assert.deepEqual(
        walked,
        all.map((f) => f.id),
      );
      for (const q of ['page=0', 'page=100001', 'page_size=0', 'page_size=1001', 'page=x']) {
        assert.equal(
          (await h().request('GET', `/v2/analyses/${id}/functions?${q}`, h().keys.alice)).statusCode,
          422,
          q,
        );
      }
    });

    test('func_maps, details and the deprecated list agree with the function list', async () => {
      const maps = (await h().request('GET', `/v2/analyses/${id}/func_maps`, h().keys.alice)).json().data.function_maps;
      for (const f of all) {
        assert.equal(maps.function_map[String(f.id)], f.vaddr);
        assert.equal(maps.inverse_function_map[String(f.vaddr)], f.id);
        assert.equal(maps.name_map[String(f.vaddr)], f.name);
      }
      const local = all.find((f) => f.name === 'local_fn')!;
      const d = (await h().request('GET', `/v2/functions/${local.id}`, h().keys.alice)).json().data;
      assert.deepEqual(
        [d.function_name, d.function_vaddr, d.function_size, d.analysis_id],
        [local.name, local.vaddr, local.size, id],
      );
      const legacy = (
        await h().request(
          'GET',
          `/v2/analyses/${id}/functions/list?search_term=_fn&min_v_addr=${PROGRAM.exported}&max_v_addr=${PROGRAM.local}`,
          h().keys.alice,
        )
      ).json().data.functions;
      assert.deepEqual(
        legacy.map((f: { function_name: string }) => f.function_name),
        ['exported_fn', 'init_fn', 'local_fn'],
      );
    });

    test('the deprecated list carries each function’s vector unless include_embeddings=false', async () => {
      const list = async (query: string) =>
        (await h().request('GET', `/v2/analyses/${id}/functions/list?${query}`, h().keys.alice)).json().data
          .functions as { function_id: number; embedding?: number[] }[];
      const withVectors = await list('page_size=1000');
      assert.equal(withVectors.length, all.length);
      for (const f of withVectors) {
        assert.equal(f.embedding?.length, 1024, `function ${f.function_id} has its vector`);
        assert.ok(Math.abs(Math.hypot(...f.embedding!) - 1) < 1e-3, 'unit length');
      }
      // The same vectors the engine computes for these bytes, function by function.
      const direct = await analyze(program(), {});
      for (const [i, f] of direct.functions.entries()) {
        const served = withVectors.find((w) => w.function_id === all.find((a) => a.vaddr === f.vaddr)!.id)!;
        const want = dequantiseVector(direct.vectors!.vectors.subarray(i * 1024, (i + 1) * 1024));
        assert.ok(
          want.every((x, j) => Math.abs(x - served.embedding![j]!) < 1e-6),
          `vector of ${f.name}`,
        );
      }
      assert.deepEqual(await list('include_embeddings=true&page_size=2'), withVectors.slice(0, 2));
      for (const f of await list('include_embeddings=false')) assert.equal('embedding' in f, false);
    });

    test('call graph: callees name imports; callers point back', async () => {
      const start = all.find((f) => f.name === '_start')!;
      const cc = (await h().request('GET', `/v2/functions/${start.id}/callees_callers`, h().keys.alice)).json().data;
      assert.ok(Array.isArray(cc.callees) && Array.isArray(cc.callers));
      for (const c of cc.callees)
        if (!c.is_external)
          assert.ok(
            all.some((f) => f.id === c.function_id),
            'an internal callee is a function',
          );
      const bulk = (
        await h().request(
          'GET',
          `/v2/functions/callees_callers?function_ids=${start.id}&function_ids=${all[1]!.id}`,
          h().keys.alice,
        )
      ).json().data;
      assert.equal(bulk.length, 2);
    });

    test('strings: search, order and totals; strings status is COMPLETED', async () => {
      const r = (await h().request('GET', `/v2/analyses/${id}/functions/strings?page_size=1000`, h().keys.alice)).json()
        .data;
      assert.equal(r.total_strings, r.strings.length);
      const values = r.strings.map((s: { value: string }) => s.value);
      assert.deepEqual(values, [...values].sort());
      const desc = (
        await h().request('GET', `/v2/analyses/${id}/functions/strings?order_by=length&sort_order=DESC`, h().keys.alice)
      )
        .json()
        .data.strings.map((s: { value: string }) => s.value.length);
      assert.deepEqual(
        desc,
        [...desc].sort((a: number, b: number) => b - a),
      );
      if (values.length > 0) {
        const needle = values[0].slice(0, 3);
        const found = (
          await h().request(
            'GET',
            `/v2/analyses/${id}/functions/strings?search=${encodeURIComponent(needle)}`,
            h().keys.alice,
          )
        ).json().data;
        assert.ok(found.strings.every((s: { value: string }) => s.value.toLowerCase().includes(needle.toLowerCase())));
      }
      const status = (await h().request('GET', `/v2/analyses/${id}/functions/strings/status`, h().keys.alice)).json()
        .data;
      assert.deepEqual(status, { status: 'COMPLETED' });
    });

    test('a re-analysis replaces the functions atomically (same set, new ids)', async () => {
      await h().request('POST', `/v2/analyses/${id}/requeue`, h().keys.alice, {});
      assert.equal(await h().waitForStatus(h().keys.alice, id), 'Complete');
      const again = (await h().request('GET', `/v2/analyses/${id}/functions`, h().keys.alice)).json().data
        .functions as Fn[];
      assert.deepEqual(
        again.map((f) => [f.vaddr, f.name]),
        all.map((f) => [f.vaddr, f.name]),
      );
      assert.ok(again.every((f) => !all.some((o) => o.id === f.id)));
      all = again;
    });

    test('plugin boundaries win: rebased and named EXTERNAL', async () => {
      const up = await h().upload(h().keys.alice, program());
      const sha = up.json().data.sha_256_hash as string;
      const pluginBase = 0x400000;
      const imageBase = 0x10000; // the program's lowest PT_LOAD
      const res = await h().request('POST', '/v2/analyses', h().keys.alice, {
        filename: 'with-symbols',
        sha_256_hash: sha,
        symbols: {
          base_address: pluginBase,
          function_boundaries: [
            {
              mangled_name: 'plugin_start',
              start_address: PROGRAM.start - imageBase + pluginBase,
              end_address: PROGRAM.start - imageBase + pluginBase + 16,
            },
            {
              mangled_name: '_ZN3foo3barEv',
              start_address: PROGRAM.local - imageBase + pluginBase,
              end_address: PROGRAM.local - imageBase + pluginBase + 32,
            },
          ],
        },
      });
      const aid = res.json().data.analysis_id as number;
      assert.equal(await h().waitForStatus(h().keys.alice, aid), 'Complete');
      const fns = (await h().request('GET', `/v2/analyses/${aid}/functions`, h().keys.alice)).json().data
        .functions as Fn[];
      assert.deepEqual(
        fns.map((f) => [f.vaddr, f.name, f.mangled_name, f.name_source_type]),
        [
          [PROGRAM.start, 'plugin_start', 'plugin_start', 'EXTERNAL'],
          [PROGRAM.local, 'foo::bar()', '_ZN3foo3barEv', 'EXTERNAL'],
        ],
      );
    });

    test('debug_hash: an uploaded DEBUG file names the stripped binary; anything else is logged and unused', async () => {
      const localName = async (aid: number) => {
        assert.equal(await h().waitForStatus(h().keys.alice, aid), 'Complete');
        const fns = (await h().request('GET', `/v2/analyses/${aid}/functions`, h().keys.alice)).json().data
          .functions as Fn[];
        return fns.find((f) => f.vaddr === PROGRAM.local)!;
      };
      const stripped = Buffer.from(withoutSymtab(program()));
      const dbg = await h().upload(h().keys.alice, program(), 'sample.debug', 'DEBUG');
      const debugHash = dbg.json().data.sha_256_hash as string;
      const named = await h().analysis(h().keys.alice, stripped, { debug_hash: debugHash });
      assert.deepEqual((({ name, debug }) => ({ name, debug }))(await localName(named)), {
        name: 'local_fn',
        debug: true,
      });
      assert.equal((await h().request('GET', `/v2/analyses/${named}/basic`, h().keys.alice)).json().data.debug, true);

      // Bob cannot borrow Alice's debug file by its hash; a label that is no hash is kept but unused.
      for (const [key, hash] of [
        [h().keys.bob, debugHash],
        [h().keys.alice, 'dbg-label'],
      ] as const) {
        const aid = await h().analysis(key, stripped, { debug_hash: hash });
        assert.equal(await h().waitForStatus(key, aid), 'Complete');
        const fns = (await h().request('GET', `/v2/analyses/${aid}/functions`, key)).json().data.functions as Fn[];
        assert.equal(fns.find((f) => f.vaddr === PROGRAM.local)!.name, `sub_${PROGRAM.local.toString(16)}`);
        const logs = (await h().request('GET', `/v2/analyses/${aid}/logs`, key)).json().data.logs as string;
        assert.match(logs, new RegExp(`Debug file ${hash} is not among your uploads`));
      }
    });

    test('blocks: every function gets its blocks with text; destinations point at its own blocks', async () => {
      for (const f of all) {
        const r = await h().request('GET', `/v2/functions/${f.id}/blocks`, h().keys.alice);
        assert.equal(r.statusCode, 200, r.body);
        const { blocks, local_variables, params } = r.json().data as {
          blocks: { id: number; min_addr: number; max_addr: number; asm: string[]; destinations: Dest[] }[];
          local_variables: unknown[];
          params: unknown[];
        };
        assert.deepEqual([local_variables, params], [[], []]);
        assert.equal(blocks[0]!.min_addr, f.vaddr, f.name);
        for (const b of blocks) {
          assert.ok(b.min_addr <= b.max_addr && b.max_addr < f.vaddr + Math.max(f.size, 1), `${f.name} ${b.id}`);
          assert.ok(b.asm.length > 0 && b.asm[0]!.startsWith(`0x${b.min_addr.toString(16)}: `), b.asm[0]);
          for (const d of b.destinations)
            if (d.destination_block_id !== null)
              assert.equal(blocks[d.destination_block_id]!.min_addr, Number(d.vaddr), `${f.name} → ${d.vaddr}`);
        }
      }
    });

    test('blocks: a raw x86-64 blob renders exactly; calls name their callee; others get 404/422', async () => {
      // push rbp; mov rbp, rsp; call helper; pop rbp; ret; int3; helper: xor eax, eax; ret
      const code = Buffer.from([0x55, 0x48, 0x89, 0xe5, 0xe8, 3, 0, 0, 0, 0x5d, 0xc3, 0xcc, 0x31, 0xc0, 0xc3]);
      const aid = await h().analysis(h().keys.alice, code, {
        binary_config: { isa: 'x86_64', platform: 'linux' },
        symbols: { base_address: 0x401000, function_boundaries: [] },
      });
      assert.equal(await h().waitForStatus(h().keys.alice, aid), 'Complete');
      const fns = (await h().request('GET', `/v2/analyses/${aid}/functions`, h().keys.alice)).json().data
        .functions as Fn[];
      const main = fns.find((f) => f.vaddr === 0x401000)!;
      const r = await h().request('GET', `/v2/functions/${main.id}/blocks`, h().keys.alice);
      assert.deepEqual(r.json().data.blocks, [
        {
          asm: ['0x401000: push rbp', '0x401001: mov rbp, rsp', '0x401004: call 0x40100c ; sub_40100c'],
          id: 0,
          min_addr: 0x401000,
          max_addr: 0x401008,
          destinations: [{ destination_block_id: 1, flowtype: 'fallthrough', vaddr: '0x401009' }],
          comment: null,
        },
        {
          asm: ['0x401009: pop rbp', '0x40100a: ret'],
          id: 1,
          min_addr: 0x401009,
          max_addr: 0x40100a,
          destinations: [],
          comment: null,
        },
      ]);
      assert.equal((await h().request('GET', `/v2/functions/${main.id}/blocks`, h().keys.bob)).statusCode, 404);
      assert.equal((await h().request('GET', `/v2/functions/99999999/blocks`, h().keys.alice)).statusCode, 404);
      assert.equal((await h().request('GET', `/v2/functions/x/blocks`, h().keys.alice)).statusCode, 422);
    });

    test('invisible analyses and their functions are missing; xrefs list calls into a function', async () => {
      const local = all.find((f) => f.name === 'local_fn')!;
      assert.equal((await h().request('GET', `/v2/functions/${local.id}`, h().keys.bob)).statusCode, 404);
      assert.equal((await h().request('GET', `/v2/analyses/${id}/func_maps`, h().keys.bob)).statusCode, 404);
      const x = (await h().request('GET', `/v2/analyses/${id}/xrefs/${PROGRAM.start}`, h().keys.alice)).json().data;
      assert.ok(Array.isArray(x.xref_to_list) && Array.isArray(x.xref_from_list));
    });
  });
}
