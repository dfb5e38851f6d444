// Dynamic execution through the API on both databases: an analysis created with the sandbox runs its sample
// in the emulator (a child process) beside the static analysis — status PENDING then SUCCESS, the list's
// filter, the process tree, the DNS it asked, its behaviours with ATT&CK techniques and the processes that
// showed them; a Windows program's registry operations, injected child and its dump (downloaded by name);
// a sample the emulator cannot run ends in ERROR with the reason; an
// analysis without the sandbox says how to ask; others' private analyses are 404; the run's events a page
// at a time, by process and kind, with the functions of their call sites. Skips without libunicorn2.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { emulatorAvailable } from '../../src/engine/index.js';
import { backends } from '../helpers/backends.js';
import { machO } from '../helpers/engine/formats.js';
import { useHarness } from '../helpers/harness.js';
import { elf64, implantProgram, windowsInjector, windowsSelfCopier, x86_64Program } from '../helpers/samples.js';

const SANDBOX = {
  analysis_config: { sandbox_config: { enabled: true, command_line_args: '--beacon  c2.example.org' } },
};

/** A macOS program: the static analysis reads it, the emulator runs Linux and Windows programs only. */
const macProgram = () =>
  Buffer.from(
    machO({
      bits: 64,
      cputype: 0x0100_0007,
      filetype: 2,
      commands: [
        { kind: 'segment', name: '__TEXT', vmaddr: 0x1_0000_0000 },
        { kind: 'main', entryoff: 0 },
      ],
    }),
  );

for (const backend of backends) {
  describe(`dynamic execution (${backend.name})`, { skip: backend.skip ?? false }, () => {
    const h = useHarness(backend);
    const view = (id: number, name: string, key = h().keys.alice) =>
      h().request('GET', `/v2/analyses/${id}/dynamic-execution/${name}`, key);
    const binaryOf = async (id: number) =>
      (await h().request('GET', `/v2/analyses/${id}/basic`, h().keys.alice)).json().data.binary_id as number;
    const related = async (binary: number) => {
      const r = await h().request('GET', `/v2/binaries/${binary}/related`, h().keys.alice);
      assert.equal(r.statusCode, 200, r.body);
      return r.json().data;
    };
    const relatedStatus = async (binary: number) =>
      (await h().request('GET', `/v2/binaries/${binary}/related/status`, h().keys.alice)).json().data;
    /** Polls the status until the run is no longer pending. */
    const settled = async (id: number) => {
      for (const deadline = Date.now() + 60_000; ;) {
        const s = (await view(id, 'status')).json().data.status as string;
        if (s !== 'PENDING' || Date.now() > deadline) return s;
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    interface Event {
      seq: number;
      pid: number;
      kind: string;
      api: string;
      site: number;
      detail: Record<string, string | number>;
      function_id: number | null;
    }
    const events = async (id: number, query: string, key = h().keys.alice) => {
      const r = await view(id, `events?${query}`, key);
      assert.equal(r.statusCode, 200, r.body);
      return r.json().data as {
        events: Event[];
        total: number;
        recorded: number;
        kinds: { kind: string; count: number }[];
      };
    };

    /** The implant's events (once its static analysis is Complete): pages, filters, functions, visibility. */
    const checkEvents = async (id: number) => {
      const all = await events(id, 'page_size=500');
      assert.equal(all.total, all.events.length);
      assert.equal(all.recorded, all.total);
      assert.deepEqual(
        all.events.map((e) => e.seq),
        all.events.map((_, i) => i),
      );
      assert.equal(
        all.kinds.reduce((n, k) => n + k.count, 0),
        all.total,
      );
      // Pages of two, in run order, add up to the whole.
      const paged: Event[] = [];
      for (let page = 1; page <= Math.ceil(all.total / 2); page++) {
        const p = await events(id, `page=${page}&page_size=2`);
        assert.equal(p.total, all.total);
        assert.ok(p.events.length <= 2);
        paged.push(...p.events);
      }
      assert.deepEqual(paged, all.events);
      assert.deepEqual((await events(id, `page=${all.total + 1}&page_size=1`)).events, []);
      // The shell the sample started runs the sample's code until it execs: its exec, with the sample's function.
      const child = await events(id, 'pid=1001');
      assert.ok(child.events.length > 0);
      assert.ok(child.events.every((e) => e.pid === 1001));
      assert.deepEqual(child.kinds, [{ kind: 'process-exec', count: 1 }]);
      const exec = child.events[0]!;
      assert.equal(exec.detail.path, '/bin/sh');
      const dns = await events(id, 'kind=dns-query');
      assert.equal(dns.total, 1);
      const [query] = dns.events;
      assert.deepEqual([query!.pid, query!.kind, query!.detail.host], [1000, 'dns-query', 'c2.example.org']);
      assert.deepEqual(dns.kinds, all.kinds);
      assert.equal((await events(id, 'pid=1001&kind=dns-query')).total, 0);
      // Every call site is in the program's one function, at its entry (as the behaviours say).
      const [entry] = (await view(id, 'ttps')).json().data.data.ttps[0].functions as {
        function_id: number;
        function_vaddr: number;
      }[];
      assert.equal(entry!.function_vaddr, 0x401000);
      for (const e of all.events)
        assert.equal(e.function_id, entry!.function_id, `${e.kind} at 0x${e.site.toString(16)}`);
      // Bounds and visibility.
      for (const bad of ['page_size=501', 'page=0', 'kind=DNS', 'pid=-1'])
        assert.equal((await view(id, `events?${bad}`)).statusCode, 422, bad);
      assert.equal((await view(id, 'events', h().keys.bob)).statusCode, 404);
    };

    test('a run: status, list filter, process tree, network, behaviours; registry and dumps empty', async (t) => {
      if (!emulatorAvailable()) return t.skip('libunicorn2 is not installed (apt-get install libunicorn2)');
      const { alice, bob } = h().keys;
      const id = await h().analysis(alice, implantProgram(), SANDBOX);
      assert.equal((await view(id, 'status')).json().data.status, 'PENDING');
      assert.equal(await settled(id), 'SUCCESS');
      assert.deepEqual((await view(id, 'status')).json().data.stop, { reason: 'exit', detail: 'exit status 0' });
      const listed = async (status: string) =>
        (await h().request('GET', `/v2/analyses/list?dynamic_execution_status=${status}`, alice))
          .json()
          .data.results.map((r: { analysis_id: number }) => r.analysis_id);
      assert.ok((await listed('SUCCESS')).includes(id));
      assert.ok(!(await listed('PENDING')).includes(id));

      const tree = (await view(id, 'process-tree')).json().data;
      assert.equal(tree.success, true);
      assert.deepEqual(tree.data, [
        {
          pid: 1000,
          procname: 'sample.bin',
          executable_name: 'sample.bin',
          args: ['sample.bin', '--beacon', 'c2.example.org'],
          ts_from: 0,
          ts_to: 4,
          children: [
            {
              pid: 1001,
              procname: 'sh',
              executable_name: '/bin/sh',
              args: ['sh', '-c', 'id'],
              ts_from: 0,
              ts_to: 1,
              children: [],
            },
          ],
        },
      ]);

      const network = (await view(id, 'network-overview')).json().data;
      assert.deepEqual(network, {
        dns: [{ host: 'c2.example.org', type: 'A', answers: [{ type: 'A', data: '192.0.2.10' }] }],
        metadata: [],
      });

      const ttps = (await view(id, 'ttps')).json().data;
      assert.equal(ttps.success, true);
      const byTechnique = new Map(
        (ttps.data.ttps as { attack: { id: string }[]; occurrences: unknown[]; score: number }[]).map((x) => [
          x.attack[0]!.id,
          x,
        ]),
      );
      assert.deepEqual([...byTechnique.keys()].sort(), ['T1033', 'T1059.004', 'T1071.001', 'T1105']);
      assert.deepEqual(byTechnique.get('T1059.004')!.occurrences, [{ pid: 1001, ppid: 1000 }]);
      assert.deepEqual(byTechnique.get('T1105')!.occurrences, [{ pid: 1000, ppid: 0 }]);
      assert.equal(
        ttps.data.score,
        [...byTechnique.values()].reduce((n, x) => n + x.score, 0),
      );
      // Once the static analysis is done, each behaviour names the functions whose calls showed it: here
      // the program's one function, at its entry.
      assert.equal(await h().waitForStatus(alice, id), 'Complete');
      const linked = (await view(id, 'ttps')).json().data.data.ttps as { functions: { function_vaddr: number }[] }[];
      for (const x of linked)
        assert.deepEqual(
          x.functions.map((f) => f.function_vaddr),
          [0x401000],
        );

      await checkEvents(id);

      assert.deepEqual((await view(id, 'process-registry')).json().data, { success: true, data: {} });
      assert.deepEqual((await view(id, 'process-dumps')).json().data, { success: true, data: { count: 0, dumps: [] } });
      const dump = await view(id, 'process-dumps/heap.bin');
      assert.equal(dump.statusCode, 404);
      assert.match(dump.json().meta.detail, /no dump named heap\.bin/);
      // Bob cannot see alice's private analysis: as if it did not exist.
      assert.equal((await view(id, 'ttps', bob)).statusCode, 404);
      assert.match(
        (await h().request('GET', `/v2/analyses/${id}/logs`, alice)).body,
        /Dynamic execution: done in \d+ ms/,
      );
      // A requeue runs the sample again, from PENDING, as the analysis asked for it.
      assert.equal((await h().request('POST', `/v2/analyses/${id}/requeue`, alice, {})).statusCode, 201);
      assert.equal((await view(id, 'status')).json().data.status, 'PENDING');
      assert.equal((await view(id, 'ttps')).statusCode, 409);
      assert.equal(await settled(id), 'SUCCESS');
    });

    test('a Windows run: registry operations by process, the injected child, its dump and the download of it', async (t) => {
      if (!emulatorAvailable()) return t.skip('libunicorn2 is not installed (apt-get install libunicorn2)');
      const { alice } = h().keys;
      const id = await h().analysis(alice, Buffer.from(windowsInjector()), SANDBOX);
      assert.equal(await settled(id), 'SUCCESS');
      assert.deepEqual((await view(id, 'status')).json().data.stop, { reason: 'exit', detail: 'ExitProcess(0)' });
      const run = 'HKCU\\Software\\Microsoft\\Windows\\CurrentVersion\\Run';
      assert.deepEqual((await view(id, 'process-registry')).json().data, {
        success: true,
        data: {
          1000: [
            { method: 'open', key: run, value_name: null, value: null },
            { method: 'set', key: run, value_name: 'updater', value: 'C:\\Users\\Public\\updater.exe' },
          ],
        },
      });
      const tree = (await view(id, 'process-tree')).json().data.data;
      assert.deepEqual(
        tree[0].children.map((c: { pid: number; procname: string; args: string[] }) => [c.pid, c.procname, c.args]),
        [[1008, 'notepad.exe', ['notepad.exe']]],
      );
      const dumps = (await view(id, 'process-dumps')).json().data.data;
      assert.equal(dumps.count, 1);
      const [dump] = dumps.dumps;
      assert.deepEqual(dump.extended_metadata.type, 'shellcode');
      assert.equal(dump.extended_metadata.size, 4096);
      assert.equal(dump.base_address, 0x1f0000);
      assert.match(dump.filename_friendly, /injected into notepad\.exe \(pid 1008\)/);
      assert.deepEqual([dump.pid, dump.reason], [1008, 'injected']);
      const bytes = await view(id, `process-dumps/${dump.actual_filename}`);
      assert.equal(bytes.statusCode, 200);
      assert.equal(bytes.headers['content-type'], 'application/octet-stream');
      assert.equal(bytes.rawPayload.length, 4096);
      // What the sample wrote there: the first 16 bytes of its own code.
      assert.deepEqual([...bytes.rawPayload.subarray(0, 4)], [0x48, 0x83, 0xec, 0x68]);
      const ids = ((await view(id, 'ttps')).json().data.data.ttps as { attack: { id: string }[] }[]).map(
        (x) => x.attack[0]!.id,
      );
      assert.deepEqual(ids.sort(), ['T1055.002', 'T1106', 'T1112', 'T1547.001']);

      // The shellcode is a child binary of the sample, not analysed (no model for bytes without a header)
      // until alice analyses its hash with a binary_config: that analysis is the child's.
      const parent = await binaryOf(id);
      const [child] = (await related(parent)).children;
      assert.deepEqual(child, {
        binary_id: child.binary_id,
        analysis_id: null,
        name: dump.actual_filename,
        sha256: dump.extended_metadata.sha256,
        location: dump.actual_filename,
        origin: 'dump',
        task_id: null,
      });
      const created = await h().request('POST', '/v2/analyses', alice, {
        filename: 'shellcode.bin',
        sha_256_hash: dump.extended_metadata.sha256,
        binary_config: { isa: 'x86_64', platform: 'windows' },
      });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(created.json().data.binary_id, child.binary_id);
      assert.equal((await related(parent)).children[0].analysis_id, created.json().data.analysis_id);
    });

    test('a dropped executable is a child binary, analysed at once; related and its status, visibility', async (t) => {
      if (!emulatorAvailable()) return t.skip('libunicorn2 is not installed (apt-get install libunicorn2)');
      const { alice, bob } = h().keys;
      const plain = await binaryOf(await h().analysis(alice, elf64(11)));
      assert.deepEqual(await relatedStatus(plain), { status: 'NONE' });
      const id = await h().analysis(alice, Buffer.from(windowsSelfCopier()), SANDBOX);
      const parent = await binaryOf(id);
      assert.equal(await settled(id), 'SUCCESS');
      assert.deepEqual(await relatedStatus(parent), { status: 'COMPLETED' });
      const { children, parent: none } = await related(parent);
      assert.equal(none, null);
      assert.equal(children.length, 1);
      const [child] = children;
      // The dropped file is the sample's own bytes, copied: a binary (and an analysis) of its own.
      assert.equal(child.name, '1000_dropped_updater.exe');
      assert.equal(child.origin, 'dump');
      const [dropped] = (await view(id, 'process-dumps')).json().data.data.dumps;
      assert.deepEqual([dropped.pid, dropped.reason], [1000, 'dropped']);
      assert.equal(
        child.sha256,
        (await h().request('GET', `/v2/analyses/${id}/basic`, alice)).json().data.sha_256_hash,
      );
      assert.notEqual(child.binary_id, parent);
      assert.equal(typeof child.analysis_id, 'number');
      assert.equal(await h().waitForStatus(alice, child.analysis_id), 'Complete');
      const up = await related(child.binary_id);
      assert.deepEqual(up, {
        children: [],
        parent: {
          binary_id: parent,
          analysis_id: id,
          name: 'sample.bin',
          sha256: child.sha256,
          location: null,
          origin: null,
          task_id: null,
        },
      });
      for (const binary of [parent, child.binary_id])
        for (const path of ['related', 'related/status']) {
          const r = await h().request('GET', `/v2/binaries/${binary}/${path}`, bob);
          assert.equal(r.statusCode, 404, `${binary} ${path}`);
        }
    });

    test('a sample the emulator cannot run ends in ERROR saying why; without the sandbox, 409 says how', async (t) => {
      if (!emulatorAvailable()) return t.skip('libunicorn2 is not installed (apt-get install libunicorn2)');
      const { alice } = h().keys;
      const mac = await h().analysis(alice, macProgram(), SANDBOX);
      assert.equal(await settled(mac), 'ERROR');
      const refused = await view(mac, 'process-tree');
      assert.equal(refused.statusCode, 409);
      assert.equal((await view(mac, 'events')).statusCode, 409);
      assert.match(
        refused.json().message,
        /could not run: macho programs are not emulated: only ELF \(Linux\) and PE \(Windows\) ones are/,
      );
      assert.equal(
        (await h().request('GET', '/v2/analyses/list?dynamic_execution_status=ERROR', alice)).json().data.results
          .length,
        1,
      );

      const plain = await h().analysis(alice, elf64(7));
      for (const name of ['status', 'ttps', 'events']) {
        const r = await view(plain, name);
        assert.equal(r.statusCode, 409);
        assert.match(r.json().message, /analysis_config\.sandbox_config\.enabled/);
      }
    });
  });
}

/**
 * `0: cpuid; jmp 0b`: a sample that never ends by itself, slowly (each cpuid is answered by the emulator's
 * hook), so the time bound comes before the instruction bound.
 */
const spinProgram = () => x86_64Program(Uint8Array.of(0x0f, 0xa2, 0xeb, 0xfc));

describe('dynamic execution: a sample that never ends (sqlite)', () => {
  const h = useHarness(backends[0]!, { sandboxMs: 1000 });

  test('it runs to BINLENS_SANDBOX_SECONDS in its own process while the API answers at once', async (t) => {
    if (!emulatorAvailable()) return t.skip('libunicorn2 is not installed (apt-get install libunicorn2)');
    const { alice } = h().keys;
    const id = await h().analysis(alice, spinProgram(), SANDBOX);
    let slowest = 0;
    let status = 'PENDING';
    for (const deadline = Date.now() + 30_000; status === 'PENDING' && Date.now() < deadline;) {
      const t0 = performance.now();
      const r = await h().request('GET', `/v2/analyses/${id}/dynamic-execution/status`, alice);
      slowest = Math.max(slowest, performance.now() - t0);
      status = r.json().data.status;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(status, 'SUCCESS');
    const stop = (await h().request('GET', `/v2/analyses/${id}/dynamic-execution/status`, alice)).json().data.stop;
    assert.equal(stop.reason, 'time');
    // The emulator spins in another process: no request waited on it.
    assert.ok(slowest < 250, `a status request took ${slowest.toFixed(0)} ms`);
  });
});
