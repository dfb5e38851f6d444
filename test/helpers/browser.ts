// Debian's Chromium driven by playwright-core, for the web interface's end-to-end tests and `npm run
// bench:ui`: started headless with nothing that reaches out to the internet, a fresh profile each time.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests cannot run here, or null. */
export function browserMissing(): string | null {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is absent (Debian package chromium; .ci/run installs it)`;
  if (!existsSync('dist/web/index.html')) return 'dist/web is absent: the web interface was not built (npm run build)';
  return null;
}

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });

/** A browser context whose pages start signed in with `key` (as the sign-in screen leaves them). */
export async function signedIn(
  browser: Browser,
  key: string,
  theme: 'light' | 'dark' = 'light',
): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
  // A script's text: this runs in the page, where the project's (Node) types do not apply.
  await context.addInitScript({
    content: `localStorage.setItem('binlens.apiKey', ${JSON.stringify(key)});
      localStorage.setItem('binlens.theme', ${JSON.stringify(theme)});`,
  });
  return context;
}
