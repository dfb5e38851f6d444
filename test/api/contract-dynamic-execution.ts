// The contract test's requests for the AnalysesDynamicExecution operations, every published status of each:
// contract.test.ts validates each response against the reference's schema. A run's results need the emulator
// (libunicorn2): without it, the operation/status pairs only a run reaches are returned as not exercised.
import assert from 'node:assert/strict';
import { emulatorAvailable } from '../../src/engine/index.js';
import type { Harness } from '../helpers/harness.js';
import type { ContractCall as Call } from '../helpers/reference-contract.js';
import { elf64, implantProgram, windowsInjector } from '../helpers/samples.js';

const BASE = '/v2/analyses/{analysis_id}/dynamic-execution';
const VIEWS = ['network-overview', 'process-dumps', 'process-registry', 'process-tree', 'ttps'];
const DUMP = `${BASE}/process-dumps/{dump_name}`;
const RELATED = ['/v2/binaries/{binary_id}/related', '/v2/binaries/{binary_id}/related/status'] as const;

/** Exercises every operation; returns the `GET path status` pairs it could not reach here. */
export async function exerciseDynamicExecution(h: Harness, call: Call): Promise<string[]> {
  const { alice, bob } = h.keys;
  const plain = { analysis_id: await h.analysis(alice, elf64(61)) };
  const bad = { analysis_id: 'x', dump_name: 'a' };
  for (const path of [...VIEWS.map((v) => `${BASE}/${v}`), `${BASE}/status`, DUMP]) {
    const params = path === DUMP ? { ...plain, dump_name: 'a' } : plain;
    await call(alice, 'GET', path, 409, { params });
    await call(bob, 'GET', path, 404, { params });
    await call(alice, 'GET', path, 422, { params: bad });
  }
  if (!emulatorAvailable())
    return [
      ...VIEWS.map((v) => `GET ${BASE}/${v} 200`),
      `GET ${BASE}/status 200`,
      `GET ${DUMP} 200`,
      `GET ${DUMP} 404`,
      ...RELATED.flatMap((p) => [`GET ${p} 200`, `GET ${p} 404`, `GET ${p} 422`]),
    ];
  // A Linux run (DNS, processes, behaviours) and a Windows one (registry, an injected child and its dump).
  const sandbox = { analysis_config: { sandbox_config: { enabled: true } } };
  for (const program of [implantProgram(), Buffer.from(windowsInjector())]) {
    const run = { analysis_id: await h.analysis(alice, program, sandbox) };
    for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
      const s = await h.request('GET', `/v2/analyses/${run.analysis_id}/dynamic-execution/status`, alice);
      if (s.json().data.status !== 'PENDING') break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal((await call(alice, 'GET', `${BASE}/status`, 200, { params: run })).data?.status, 'SUCCESS');
    for (const v of VIEWS) await call(alice, 'GET', `${BASE}/${v}`, 200, { params: run });
    await call(alice, 'GET', DUMP, 404, { params: { ...run, dump_name: 'none' } });
    const dumps = (
      await h.request('GET', `/v2/analyses/${run.analysis_id}/dynamic-execution/process-dumps`, alice)
    ).json().data.data.dumps as { actual_filename: string }[];
    for (const d of dumps) await call(alice, 'GET', DUMP, 200, { params: { ...run, dump_name: d.actual_filename } });
    // The run's dumps are the sample's children: its relatives, and theirs.
    const basic = await h.request('GET', `/v2/analyses/${run.analysis_id}/basic`, alice);
    const binary = { binary_id: basic.json().data.binary_id };
    for (const path of RELATED) {
      await call(alice, 'GET', path, 200, { params: binary });
      await call(bob, 'GET', path, 404, { params: binary });
      await call(alice, 'GET', path, 422, { params: { binary_id: 'x' } });
    }
    const related = await call(alice, 'GET', RELATED[0], 200, { params: binary });
    for (const child of (related.data?.children ?? []) as { binary_id: number }[])
      await call(alice, 'GET', RELATED[0], 200, { params: { binary_id: child.binary_id } });
  }
  return [];
}
