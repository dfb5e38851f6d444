// npm run bench:search — name search, collection membership and the event-loop stalls they cause, over
// BENCH_ANALYSES analyses (default 100 000) of BENCH_FUNCTIONS functions each (default 10: 10⁶ functions),
// on SQLite and on PostgreSQL (BINLENS_BENCH_PG_URL; skipped when none is reachable). Rows are bulk-inserted
// through Kysely; the timed calls are the store methods the /v2 and /v3 routes make.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { createStore, openDatabase, type DatabaseDriver, type Store } from '../../src/store/index.js';
import { postgresDatabase } from './lib.js';

const ANALYSES = Number(process.env.BENCH_ANALYSES ?? 100_000);
const FUNCTIONS = Number(process.env.BENCH_FUNCTIONS ?? 10);
const MEMBERS = 10_000;
const PG_URL = process.env.BINLENS_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const sha = (i: number) => i.toString(16).padStart(64, '0');

/** Every fourth analysis PRIVATE, owners alternating between alice (team red) and bob (no team). */
async function load(store: Store, db: DatabaseDriver['db']) {
  const alice = await store.users.create({
    username: 'alice',
    email: 'a',
    role: 'USER',
    teamName: 'red',
    apiKeyHash: 'a',
  });
  const bob = await store.users.create({ username: 'bob', email: 'b', role: 'USER', teamName: null, apiKeyHash: 'b' });
  for (let i = 0; i < ANALYSES; i += 1000) {
    const ids = Array.from({ length: Math.min(1000, ANALYSES - i) }, (_, k) => i + k);
    await db
      .insertInto('samples')
      .values(ids.map((n) => ({ sha256: sha(n), size: 1, identity: '{}', created_at: 0 })))
      .execute();
    const bins = await db
      .insertInto('binaries')
      .values(ids.map((n) => ({ sha256: sha(n), created_at: 0 })))
      .returning('id')
      .execute();
    const analyses = await db
      .insertInto('analyses')
      .values(
        bins.map((b, k) => ({
          binary_id: b.id,
          user_id: (i + k) % 2 ? alice.id : bob.id,
          sha256: sha(i + k),
          binary_name: `bin-${i + k}`,
          binary_size: 1,
          analysis_scope: (i + k) % 4 === 0 ? 'PRIVATE' : 'PUBLIC',
          status: 'Complete',
          model_name: 'binnet-0.7-x86-64-linux',
          base_address: null,
          debug_hash: null,
          config: '{}',
          dynamic_execution_status: null,
          created_at: i + k,
          updated_at: i + k,
        })),
      )
      .returning('id')
      .execute();
    const fns = analyses.flatMap((a) =>
      Array.from({ length: FUNCTIONS }, (_, j) => ({
        analysis_id: a.id,
        vaddr: j,
        size: 1,
        name: `fn_${a.id}_${j}`,
        mangled_name: '',
        name_source_type: 'SYSTEM',
        debug: 0,
        source: 'bench',
        thumb: 0,
        blocks: '[]',
      })),
    );
    for (let j = 0; j < fns.length; j += 2000)
      await db
        .insertInto('functions')
        .values(fns.slice(j, j + 2000))
        .execute();
  }
  return { alice: { id: alice.id, teamId: alice.team_id }, bob: { id: bob.id, teamId: null } };
}

/** p50 and max of `reps` calls, and the longest time one call held the event loop without a turn. */
async function time(label: string, fn: () => Promise<unknown>, reps = 15) {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const ms: number[] = [];
  for (let i = 0; i < reps; i++) {
    const start = performance.now();
    await fn();
    ms.push(performance.now() - start);
    // Let the loop turn between calls, so a stall is one call's longest stretch without a turn.
    await new Promise((resolve) => setImmediate(resolve));
  }
  delay.disable();
  ms.sort((a, b) => a - b);
  const f = (v: number | undefined) => (v ?? NaN).toFixed(1).padStart(7);
  console.log(
    `  ${label.padEnd(52)} p50 ${f(ms[Math.floor(reps / 2)])} ms  max ${f(ms[reps - 1])} ms  stall ${f(delay.max / 1e6)} ms`,
  );
}

async function run(name: string, url: string) {
  const driver = openDatabase(url);
  await driver.migrate();
  const store = createStore(driver);
  let t = performance.now();
  const { alice, bob } = await load(store, driver.db);
  console.log(
    `${name}: ${ANALYSES} analyses, ${ANALYSES * FUNCTIONS} functions loaded in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
  const members = (
    await driver.db.selectFrom('analyses').select('binary_id').orderBy('binary_id').limit(MEMBERS).execute()
  ).map((r) => r.binary_id);
  t = performance.now();
  const big = await store.collections.create({
    userId: alice.id,
    name: 'big',
    description: '',
    scope: 'PUBLIC',
    modelName: null,
    binaryIds: members,
    tags: [],
  });
  console.log(`  create a collection of ${members.length} binaries: ${(performance.now() - t).toFixed(1)} ms`);
  await time(`binaryIds(collection of ${MEMBERS}) as bob`, () => store.collections.binaryIds([big], bob));
  await time(`visibleBinaryIds(${MEMBERS} ids) as alice`, () => store.collections.visibleBinaryIds(members, alice));
  await time('list collections by size as bob', () =>
    store.collections.list(bob, { flags: [], orderBy: 'collection_size', order: 'desc', limit: 21, offset: 0 }),
  );
  await time('search functions "fn_77", first page of 10', () =>
    store.search.functions(bob, { name: 'fn_77', limit: 11, offset: 0 }),
  );
  await time(
    'search functions, no match (reads every name)',
    () => store.search.functions(bob, { name: 'zzz', limit: 11, offset: 0 }),
    5,
  );
  await time('search binaries "bin-99", first page of 10', () =>
    store.search.binaries(bob, { name: 'bin-99', limit: 11, offset: 0 }),
  );
  await time(
    'search binaries, no match (reads every name)',
    () => store.search.binaries(bob, { name: 'zzz', limit: 11, offset: 0 }),
    5,
  );
  await time('search tags "t" as bob', () => store.search.tags(bob, { name: 't', limit: 11, offset: 0 }));
  await driver.close();
}

const dir = mkdtempSync(join(tmpdir(), 'binlens-bench-search-'));
try {
  await run('sqlite', join(dir, 'bench.sqlite'));
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const pgdb = await postgresDatabase(
  PG_URL,
  `binlens_bench_search_${process.pid}`,
  (err) => console.log(`postgres: skipped (${err.message})`),
  2000,
);
if (pgdb) {
  try {
    await run('postgres', pgdb.url);
  } finally {
    await pgdb.drop();
  }
}
