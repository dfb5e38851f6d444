// npm run bench:ui — the web interface's budgets, measured in Debian's Chromium against a real server with
// a real analysis of a generated binary (ui-binary.ts: 10^5 functions and one of ~500 blocks):
//   first contentful paint of the analysis and function pages (< 1 s; the API docs page, Swagger UI on the
//   same server, is the reference beside them), long tasks while the 10^5-row functions table scrolls (none
//   over 50 ms), the control-flow graph's layout time (< 500 ms, the page's own `cfg-layout` measure), and
//   the bundle's size.
import { readdirSync, readFileSync, statSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { AnalysisEnvelopes, FunctionEnvelopes } from '../../src/contracts/index.js';
import { browserMissing, launchChromium, signedIn } from '../../test/helpers/browser.js';
import { api, dataOf, fmt, median, startServer, uploadBuffer } from './lib.js';
import { MANY, uiBenchBinary } from './ui-binary.js';

const KEY = 'bench-ui-admin-key';
const RUNS = 3;

const missing = browserMissing();
if (missing) {
  console.log(`bench:ui needs the browser and the built interface: ${missing}`);
  process.exit(1);
}

const binary = uiBenchBinary();
const dataDir = mkdtempSync(join(tmpdir(), 'binlens-bench-ui-'));
const server = await startServer({ BINLENS_DATA_DIR: dataDir, BINLENS_ADMIN_API_KEY: KEY, BINLENS_WORKERS: '1' });
const base = server.baseUrl;
let browser: Browser | undefined;
try {
  const bytes = readFileSync(binary);
  const sha = (await uploadBuffer(base, KEY, bytes, 'functions-100k')).sha_256_hash;
  const created = dataOf(
    await api(AnalysisEnvelopes.create, base, KEY, 'POST', '/v2/analyses', {
      filename: 'functions-100k',
      sha_256_hash: sha,
    }),
    'create',
  );
  const id = created.analysis_id;
  const t0 = performance.now();
  for (;;) {
    const s = dataOf(await api(AnalysisEnvelopes.status, base, KEY, 'GET', `/v2/analyses/${id}/status`), 'status');
    if (s.analysis_status === 'Complete') break;
    if (s.analysis_status === 'Error') throw new Error('the analysis failed');
    await new Promise((r) => setTimeout(r, 500));
  }
  console.log(
    `analysis of ${binary} (${MANY.toLocaleString()} functions and big): ${fmt((performance.now() - t0) / 1000)} s`,
  );
  const big = dataOf(
    await api(
      FunctionEnvelopes.legacyList,
      base,
      KEY,
      'GET',
      `/v2/analyses/${id}/functions/list?search_term=big&include_embeddings=false`,
    ),
    'functions',
  ).functions.find((f) => f.function_name === 'big');
  if (!big) throw new Error('function big not found');

  browser = await launchChromium();
  const b = browser;
  /** A fresh signed-in page (cold cache) opened at `path`; resolves once `ready` is visible. */
  async function open(path: string, ready: string, init = ''): Promise<Page> {
    const context = await signedIn(b, KEY);
    if (init) await context.addInitScript({ content: init });
    const page = await context.newPage();
    await page.goto(base + path);
    await page.locator(ready).first().waitFor({ timeout: 120_000 });
    return page;
  }
  const paint = (page: Page) =>
    page.evaluate("performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN") as Promise<number>;
  const now = (page: Page) => page.evaluate('performance.now()') as Promise<number>;

  const rows: [string, number, number][] = [];
  const pages: [string, string, string][] = [
    ['API docs (Swagger UI, reference)', '/docs', '.swagger-ui'],
    ['analysis overview', `/analyses/${id}`, '[data-testid="overview"], .overview'],
    ['function view (500-block CFG)', `/function/${big.function_id}`, '[data-testid="cfg"] [data-block-id]'],
  ];
  for (const [name, path, ready] of pages) {
    const fcps: number[] = [];
    const readies: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const page = await open(path, ready);
      readies.push(await now(page));
      fcps.push(await paint(page));
      await page.context().close();
    }
    rows.push([name, median(fcps), median(readies)]);
  }
  const reference = rows[0]![1];
  console.log('\npage                                   FCP ms   budget   vs docs   content ready ms');
  for (const [name, fcp, ready] of rows)
    console.log(
      `${name.padEnd(38)} ${fmt(fcp, 0).padStart(6)}   ${name.includes('reference') ? '     ' : fcp < 1000 ? 'PASS ' : 'MISS '}   ${fmt(fcp / reference, 2).padStart(7)}   ${fmt(ready, 0).padStart(16)}`,
    );

  // The layout measure the function view records around dagre, and how many blocks it drew.
  const fn = await open(`/function/${big.function_id}`, '[data-testid="cfg"] [data-block-id]');
  const blocks = await fn.locator('[data-testid="cfg"] [data-block-id]').count();
  const layouts = (await fn.evaluate("performance.getEntriesByName('cfg-layout').map((e) => e.duration)")) as number[];
  await fn.context().close();
  const layout = Math.max(...layouts);
  console.log(
    `\nCFG layout of big: ${blocks} blocks in ${fmt(layout, 0)} ms (budget 500 ms: ${layout < 500 ? 'PASS' : 'MISS'})`,
  );

  // Scrolling the whole table: every long task (> 50 ms) the browser reports meanwhile.
  const table = await open(
    `/analyses/${id}?view=functions`,
    '[data-testid="functions-table"] [role="row"]',
    "window.__long = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask' });",
  );
  await table.waitForLoadState('networkidle');
  const shown = table.locator('[data-testid="functions-table"]');
  const box = await shown.boundingBox();
  if (!box) throw new Error('functions table not visible');
  await table.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 200));
  await table.evaluate('window.__long = []');
  const scrollHeight = await shown.evaluate((el: { scrollHeight: number }) => el.scrollHeight);
  const s0 = performance.now();
  for (let y = 0; y < scrollHeight; y += 4000) {
    await table.mouse.wheel(0, 4000);
    await table.waitForTimeout(16);
  }
  const scrollMs = performance.now() - s0;
  const long = (await table.evaluate('window.__long')) as number[];
  const lastRow = await shown.locator('[role="row"]').last().textContent();
  await table.context().close();
  console.log(
    `functions table: ${fmt(scrollHeight / 1e6, 1)} M px scrolled by wheel in ${fmt(scrollMs / 1000, 1)} s; long tasks ${long.length}` +
      `${long.length ? ` (max ${fmt(Math.max(...long), 0)} ms)` : ''} (budget none over 50 ms: ${long.length === 0 ? 'PASS' : 'MISS'}); last row: ${lastRow?.slice(0, 60)}`,
  );

  let raw = 0;
  let gz = 0;
  const assets = join('dist', 'web', 'assets');
  console.log('\nbundle (dist/web/assets)');
  for (const f of readdirSync(assets)) {
    const bytes = readFileSync(join(assets, f));
    const z = gzipSync(bytes).length;
    raw += statSync(join(assets, f)).size;
    gz += z;
    console.log(
      `  ${f.padEnd(40)} ${fmt(bytes.length / 1024, 1).padStart(8)} KiB  ${fmt(z / 1024, 1).padStart(7)} KiB gzip`,
    );
  }
  console.log(`  total ${fmt(raw / 1024, 1)} KiB, ${fmt(gz / 1024, 1)} KiB gzip`);
} finally {
  await browser?.close();
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
