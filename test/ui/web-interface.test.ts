// The web interface end to end: Debian's Chromium (playwright-core) against a real server listening on
// loopback, with real analyses of corpus binaries. Each screen is screenshotted into dist/ui-screenshots
// and checked with axe-core: no serious or critical violation.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { backends } from '../helpers/backends.js';
import { browserMissing, launchChromium, signedIn } from '../helpers/browser.js';
import { CORPUS } from '../helpers/engine/disasm.js';
import { tar } from '../helpers/firmware/builders.js';
import { createHarness, type Harness } from '../helpers/harness.js';

const SHOTS = 'dist/ui-screenshots';
const LZ4 = join(CORPUS, 'bin/lz4/lz4-1.10.0_linux-x86_64_gcc12_O2g');
const LZ4_STRIPPED = join(CORPUS, 'bin/lz4/lz4-1.10.0_linux-x86_64_gcc12_O2_stripped');
const LZ4_MIPS = join(CORPUS, 'bin/lz4/lz4-1.10.0_linux-mipsel_gcc12_O2_stripped');
const SAMPLE = join(CORPUS, 'bin/samples/sample-file_crypt_linux-x86_64_gcc12_O2_stripped');
/** A small function of lz4 whose C is one `return` (the golden function of the C ↔ disassembly test). */
const GOLDEN = 'LZ4_versionNumber';
const skip = browserMissing() ?? (existsSync(LZ4) ? null : `${LZ4} is absent (../shared/corpus)`);
const sqlite = backends.find((b) => b.name === 'sqlite')!;

async function screen(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
    [],
    `accessibility of ${name}`,
  );
}

describe('web interface', { skip: skip ?? false, timeout: 600_000 }, () => {
  let h: Harness;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let analysisId: number;

  before(async () => {
    if (skip) return;
    mkdirSync(SHOTS, { recursive: true });
    h = await createHarness(await sqlite.create());
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    page = await context.newPage();
  });
  after(async () => {
    if (skip) return;
    await browser?.close();
    await h?.service.close();
    await h?.db.drop();
  });

  it('serves the interface at / and its deep links, publicly, and leaves unknown paths to the API', async () => {
    for (const path of ['/', '/analyses/1', '/function/7', '/settings']) {
      const r = await fetch(base + path);
      assert.equal(r.status, 200, path);
      assert.match(await r.text(), /<div id="root">/);
      assert.match(r.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    }
    assert.equal((await fetch(`${base}/nowhere`)).status, 401);
    const asset = (await (await fetch(base)).text()).match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    assert.ok(asset);
    const r = await fetch(base + asset);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('cache-control') ?? '', /immutable/);
  });

  it('signs in with an API key, refusing a wrong one with the server’s reason', async () => {
    await page.goto(`${base}/analyses`);
    await page.waitForURL(/\/sign-in/);
    await page.getByLabel('API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    assert.match((await page.getByRole('alert').textContent()) ?? '', /Unknown or revoked API key/);
    await screen(page, 'sign-in');
    await page.getByLabel('API key').fill(h.keys.alice);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Analyses' }).waitFor();
    await page.getByText('alice', { exact: true }).waitFor();
  });

  it('uploads by the form with upload progress, follows the analysis live to Complete', async () => {
    // Upload throttled to ~1 MB/s so the progress bar is seen between empty and full.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 1_000_000,
    });
    await page.getByLabel('Binary').setInputFiles(LZ4);
    await page.getByLabel('Tags').fill('e2e, lz4');
    await page.getByRole('button', { name: 'Upload and analyse' }).click();
    const bar = page.getByRole('progressbar').first();
    await bar.waitFor();
    // Seen part way: neither empty nor full (the throttle makes the upload take seconds). Polled through
    // evaluate: the page's content security policy refuses waitForFunction's eval, as it should.
    let sent = -1;
    for (const deadline = Date.now() + 30_000; !(sent > 0 && sent < 1) && Date.now() < deadline;) {
      sent = (await page.evaluate(
        "(() => { const p = document.querySelector('progress'); return p ? p.value / p.max : -1; })()",
      )) as number;
    }
    assert.ok(sent > 0 && sent < 1, `upload progress seen part way (${sent})`);
    await screen(page, 'upload-progress');
    await page.waitForURL(/\/analyses\/\d+$/, { timeout: 60_000 });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    analysisId = Number(new URL(page.url()).pathname.split('/').pop());
    await page.getByText('Complete', { exact: true }).first().waitFor({ timeout: 180_000 });
    const a = (await h.request('GET', `/v2/analyses/${analysisId}/basic`, h.keys.alice)).json().data;
    assert.equal(a.binary_name, 'lz4-1.10.0_linux-x86_64_gcc12_O2g');
    await screen(page, 'analysis-overview');
  });

  it('lists analyses with filters kept in the URL', async () => {
    await page.goto(`${base}/analyses`);
    await page.getByRole('link', { name: 'lz4-1.10.0_linux-x86_64_gcc12_O2g' }).waitFor();
    await page.getByRole('checkbox', { name: 'Error' }).check();
    await page.waitForURL(/status=Error/);
    await page.getByText('No analysis matches').waitFor();
    await page.getByRole('checkbox', { name: 'Error' }).uncheck();
    await page.getByRole('link', { name: 'lz4-1.10.0_linux-x86_64_gcc12_O2g' }).waitFor();
    await screen(page, 'analyses');
  });

  /** The id of the function named `name` in analysis `id`. */
  async function functionId(id: number, name: string): Promise<number> {
    const url = `/v2/analyses/${id}/functions/list?search_term=${name}&include_embeddings=false`;
    const list = (await h.request('GET', url, h.keys.alice)).json().data.functions as {
      function_id: number;
      function_name: string;
    }[];
    const f = list.find((x) => x.function_name === name);
    assert.ok(f, `${name} in analysis ${id}`);
    return f.function_id;
  }

  it('lists every function in the virtualised table and opens one', async () => {
    await page.goto(`${base}/analyses/${analysisId}?view=functions`);
    const table = page.getByTestId('functions-table');
    await table.getByRole('row').nth(1).waitFor();
    const rows = await table.locator('[data-function]').count();
    const total = (await h.request('GET', `/v2/analyses/${analysisId}/basic`, h.keys.alice)).json().data
      .function_count as number;
    assert.ok(rows > 5 && rows < total, `only the rows in view are in the page (${rows} of ${total})`);
    await page.getByLabel('Search functions').fill(GOLDEN);
    await table.locator('[data-function]').first().waitFor();
    assert.equal(await table.locator('[data-function]').count(), 1);
    await screen(page, 'functions');
    await table.locator('[data-function]').first().click();
    await page.waitForURL(/\/function\/\d+$/);
    await page.getByRole('heading', { name: GOLDEN }).waitFor();
  });

  it('draws the control-flow graph and keeps disassembly and C in step', async () => {
    const id = await functionId(analysisId, 'main');
    await page.goto(`${base}/function/${id}`);
    const blocks = page.getByTestId('cfg').locator('[data-block-id]');
    await blocks.first().waitFor();
    assert.ok((await blocks.count()) > 3, 'a graph of several blocks');
    assert.ok((await page.getByTestId('cfg').locator('polyline.cfg-edge').count()) > 2, 'edges drawn');
    await screen(page, 'function-cfg');

    await page.goto(`${base}/function/${await functionId(analysisId, GOLDEN)}`);
    const c = page.getByTestId('decompiled-c');
    await c.getByRole('button', { name: 'Decompile' }).click();
    const returnLine = c.locator('[data-line]', { hasText: 'return' }).first();
    await returnLine.waitFor({ timeout: 120_000 });
    await returnLine.click();
    const asm = page.getByTestId('disassembly');
    const selected = asm.locator('[data-line].selected');
    await selected.first().waitFor();
    assert.match((await selected.allTextContents()).join('\n'), /\bret\b/, 'the return line selects the ret');
    // And back: the ret instruction selects the C line that returns.
    await page.getByTestId('cfg').click({ position: { x: 5, y: 5 } });
    await asm
      .locator('[data-line]', { hasText: /\bret\b/ })
      .first()
      .click();
    await c.locator('[data-line].selected', { hasText: 'return' }).first().waitFor();
    await screen(page, 'function-c-sync');
  });

  it('renames a function and reverts the rename from its history', async () => {
    const id = await functionId(analysisId, GOLDEN);
    await page.goto(`${base}/function/${id}`);
    await page.getByLabel('Function name').fill('lz4_version_e2e');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('heading', { name: 'lz4_version_e2e' }).waitFor();
    const name = async () => (await h.request('GET', `/v2/functions/${id}`, h.keys.alice)).json().data.function_name;
    assert.equal(await name(), 'lz4_version_e2e');
    await page.getByText('Name history').click();
    await page.getByRole('button', { name: 'Revert' }).first().click();
    await page.getByRole('heading', { name: GOLDEN }).waitFor();
    assert.equal(await name(), GOLDEN);
    await screen(page, 'function-rename');
  });

  it('runs matching for the stripped twin and accepts a candidate name', async () => {
    const stripped = await h.analysis(h.keys.alice, readFileSync(LZ4_STRIPPED));
    assert.equal(await h.waitForStatus(h.keys.alice, stripped, ['Complete', 'Error']), 'Complete');
    await page.goto(`${base}/analyses/${stripped}?view=matches`);
    await page.getByRole('button', { name: 'Run matching' }).click();
    const table = page.getByRole('table', { name: 'Candidates by query function' });
    const candidate = table.getByRole('button', { name: GOLDEN });
    await candidate.first().waitFor({ timeout: 120_000 });
    await candidate.first().click();
    await page.getByRole('button', { name: 'Accept name' }).click();
    await page.getByText("This is already the function's name.").waitFor();
    const names = (
      await h.request('GET', `/v2/analyses/${stripped}/functions/list?include_embeddings=false`, h.keys.alice)
    ).json().data.functions as { function_name: string }[];
    assert.ok(names.some((f) => f.function_name === GOLDEN));
    await screen(page, 'matches');
  });

  it('creates a collection, adds the binary and opens it', async () => {
    await page.goto(`${base}/collections`);
    await page.getByRole('button', { name: 'New collection' }).click();
    await page.getByLabel('Name').fill('e2e collection');
    await page.getByRole('button', { name: 'Create collection' }).click();
    await page.waitForURL(/\/collections\/\d+$/);
    await page.getByLabel('Find', { exact: true }).fill('lz4-1.10.0_linux-x86_64_gcc12_O2g');
    await page.getByRole('button', { name: 'Find' }).click();
    await page
      .getByRole('button', { name: /^Add lz4-1\.10\.0_linux-x86_64_gcc12_O2g/ })
      .first()
      .click();
    await page.getByRole('link', { name: 'lz4-1.10.0_linux-x86_64_gcc12_O2g' }).first().waitFor();
    await screen(page, 'collection');
    await page.goto(`${base}/collections`);
    await page.getByRole('link', { name: 'e2e collection' }).click();
    await page.getByRole('heading', { name: 'e2e collection' }).waitFor();
  });

  it('searches binaries and functions', async () => {
    await page.goto(`${base}/search`);
    await page.getByRole('searchbox', { name: 'Search' }).fill('lz4');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('table', { name: 'Binaries found' }).getByRole('link', { name: /lz4/ }).first().waitFor();
    await page.getByRole('link', { name: 'Functions' }).click();
    await page.getByRole('searchbox', { name: 'Search' }).fill(GOLDEN);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('table', { name: 'Functions found' }).getByRole('link', { name: GOLDEN }).first().waitFor();
    await screen(page, 'search');
  });

  it('shows a dynamic execution run: its processes and behaviour', async () => {
    const id = await h.analysis(h.keys.alice, readFileSync(SAMPLE), {
      analysis_config: { sandbox_config: { enabled: true } },
    });
    await page.goto(`${base}/analyses/${id}?view=dynamic`);
    await page.getByRole('heading', { name: 'Processes' }).waitFor({ timeout: 120_000 });
    await screen(page, 'dynamic');
  });

  it('unpacks a firmware image from the form: its tree, the executable analysed, the relations graph', async () => {
    const image = gzipSync(
      tar([
        { name: 'etc/config', data: Buffer.from('option lan 192.168.1.1\n') },
        { name: 'usr/bin/lz4', data: readFileSync(LZ4_MIPS) },
      ]),
    );
    await page.goto(`${base}/analyses`);
    await page
      .getByLabel('Firmware image')
      .setInputFiles({ name: 'router.tar.gz', mimeType: 'application/gzip', buffer: image });
    await page.getByRole('button', { name: 'Unpack' }).click();
    await page.waitForURL(/\/firmware\/[^/]+$/);
    await page.getByRole('heading', { name: 'Executables' }).waitFor({ timeout: 120_000 });
    const child = page.getByRole('link', { name: /lz4/ }).first();
    await child.waitFor();
    await screen(page, 'firmware');
    await child.click();
    await page.waitForURL(/\/analyses\/\d+/);
    const url = new URL(page.url());
    await page.goto(`${base}${url.pathname}?view=relations`);
    await page.getByRole('heading', { name: 'Relations' }).waitFor();
    await page.getByTestId('relations-graph').or(page.locator('svg')).first().waitFor();
    await screen(page, 'relations');
  });

  it('shows the settings page with the key handling, and the dark theme', async () => {
    const dark = await signedIn(browser, h.keys.alice, 'dark');
    const p = await dark.newPage();
    await p.goto(`${base}/settings`);
    await p.getByRole('heading', { name: 'API key' }).waitFor();
    assert.equal(await p.locator('html').getAttribute('data-theme'), 'dark');
    await screen(p, 'settings-dark');
    await p.goto(`${base}/function/${await functionId(analysisId, 'main')}`);
    await p.getByTestId('cfg').locator('[data-block-id]').first().waitFor();
    await screen(p, 'function-dark');
    await dark.close();
  });
});
