// The web interface (web/, bundled into dist/web by `npm run build`) at `/`: its hashed assets under
// /assets/, cached for good, and its page at every path the interface routes (the reference portal's
// /analyses/{id} and /function/{id} among them), never cached so a new build is picked up. Public
// (plugins/auth.ts): the page holds no data; it asks for the API key and sends it with each API request.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

/** dist/web beside dist/src, where this file runs from dist/src/api. */
const WEB_ROOT = fileURLToPath(new URL('../../web/', import.meta.url));

/** Paths the interface's router answers (web/src/app.tsx); anything else stays the API's 404. */
export const WEB_PAGES = [
  '/',
  '/sign-in',
  '/settings',
  '/analyses',
  '/analyses/*',
  '/function/*',
  '/collections',
  '/collections/*',
  '/search',
  '/firmware/*',
];

/**
 * The page runs only its own bundle and talks only to this server: an injected script could read the
 * API key the interface keeps in the browser's storage, so none may run (no inline scripts, no other
 * origins, no framing).
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

const NOT_BUILT =
  '<!doctype html><html lang="en"><title>Binlens</title><body><h1>The web interface was not built</h1>' +
  '<p>Run <code>npm run build</code> (npm install does it) and restart; the API is unaffected.</p></body></html>';

export async function registerWebInterface(app: FastifyInstance): Promise<void> {
  if (existsSync(`${WEB_ROOT}index.html`)) {
    await app.register(fastifyStatic, {
      root: `${WEB_ROOT}assets`,
      prefix: '/assets/',
      immutable: true,
      maxAge: '365d',
      schemaHide: true,
    });
  }
  for (const url of WEB_PAGES) {
    app.get(url, { schema: { hide: true } }, async (_req, reply) => {
      // Read per request (a few hundred bytes): a rebuild is served without a restart.
      const index = await readFile(`${WEB_ROOT}index.html`, 'utf8').catch(() => null);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-cache')
        .header('content-security-policy', CONTENT_SECURITY_POLICY)
        .status(index === null ? 503 : 200)
        .send(index ?? NOT_BUILT);
    });
  }
}
