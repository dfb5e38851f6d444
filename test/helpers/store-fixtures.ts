import { createStore, openDatabase, type FunctionResults, type Store } from '../../src/store/index.js';
import type { CallRecord, FunctionRecord, NameOrigin } from '../../src/shared/index.js';
import type { TestDatabase } from './backends.js';

/** A store over a test database, migrated. */
export async function migratedStore(db: TestDatabase): Promise<Store> {
  const driver = openDatabase(db.url);
  await driver.migrate();
  return createStore(driver);
}

/** A queued analysis of a fresh (random) sample the user uploaded; returns the store's create result. */
export async function newAnalysis(store: Store, userId: number, name = 'a.bin', scope = 'PRIVATE') {
  const sha = Math.random().toString(16).slice(2).padEnd(64, '0');
  await store.samples.recordUpload(
    { sha256: sha, size: 10, identity: '{}' },
    { user_id: userId, file_type: 'BINARY', filename: name },
  );
  return store.analyses.create(
    {
      userId,
      sha256: sha,
      binaryName: name,
      binarySize: 10,
      scope,
      modelName: 'binnet-0.7-x86-64-linux',
      baseAddress: null,
      debugHash: null,
      config: '{}',
      tags: ['t'],
    },
    { kind: 'test', payload: { sha }, maxAttempts: 3 },
  );
}

/** A recovered function as the engine records it: 16 bytes at `vaddr`, no blocks, found by a test. */
export const functionRecord = (
  vaddr: number,
  name = `sub_${vaddr.toString(16)}`,
  nameOrigin: NameOrigin = 'generated',
): FunctionRecord => ({
  vaddr,
  size: 16,
  name,
  mangledName: name,
  nameOrigin,
  found: 'test',
  thumb: false,
  noReturn: false,
  blocks: [],
});

/** A call from function `caller` at `site`: to function `callee` (direct), or to an import when null. */
export const callRecord = (
  caller: number,
  callee: number | null,
  target: number,
  site: number,
  calleeName: string | null = null,
): CallRecord => ({ caller, callee, target, site, calleeName, kind: callee === null ? 'import' : 'direct' });

/**
 * Recovery results with one function per address, named as the analysis would (`sub_<hex>`), and direct
 * calls between them as [caller, callee] indexes into `vaddrs`.
 */
export const functionsAt = (vaddrs: number[], calls: [number, number][] = []): FunctionResults => ({
  functions: vaddrs.map((vaddr) => functionRecord(vaddr)),
  calls: calls.map(([caller, callee], i) => callRecord(caller, callee, vaddrs[callee]!, vaddrs[caller]! + i)),
  strings: [],
  refs: [],
});
