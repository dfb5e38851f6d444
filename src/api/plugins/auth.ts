import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../../shared/errors.js';
import type { Caller, UsersService } from '../../services/index.js';
import { WEB_PAGES } from '../web-interface.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
}

/** Routes anyone may call, by the pattern they were registered with (never by the request's own URL). */
const PUBLIC_ROUTES = new Set(['/healthz', '/readyz', '/openapi.json', ...WEB_PAGES]);
/** The interactive docs and their static files; the web interface's bundle. */
const PUBLIC_PREFIXES = ['/docs', '/assets'];

/**
 * Public or not is decided on the route the router matched: the raw URL may spell the same route another
 * way (`/%762/config` is `/v2/config` once decoded), so a check on the URL's text can be walked around.
 * Everything else, an unknown path included, needs a key; the hook runs before any body is read.
 */
export const isPublicRoute = (pattern: string | undefined): boolean =>
  pattern !== undefined &&
  (PUBLIC_ROUTES.has(pattern) || PUBLIC_PREFIXES.some((p) => pattern === p || pattern.startsWith(`${p}/`)));

/** The raw key travels in `Authorization` (the reference's APIKey scheme); a `Bearer ` prefix is tolerated. */
const keyOf = (req: FastifyRequest) => req.headers.authorization?.replace(/^Bearer\s+/i, '');

export function registerAuth(app: FastifyInstance, users: UsersService): void {
  app.decorateRequest('caller', null as unknown as Caller);
  app.addHook('onRequest', async (request) => {
    if (isPublicRoute(request.routeOptions.url)) return;
    const key = keyOf(request);
    const caller = await users.authenticate(key);
    if (!caller) throw errors.unauthorized(key ? 'Unknown or revoked API key' : 'Missing API key');
    request.caller = caller;
  });
}
