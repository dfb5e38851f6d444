import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../../shared/errors.js';
import type { Caller, UsersService } from '../../services/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
  }
}

/** The raw key travels in `Authorization` (the reference's APIKey scheme); a `Bearer ` prefix is tolerated. */
const keyOf = (req: FastifyRequest) => req.headers.authorization?.replace(/^Bearer\s+/i, '');

export function registerAuth(app: FastifyInstance, users: UsersService): void {
  app.decorateRequest('caller', null as unknown as Caller);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/v2/') && !request.url.startsWith('/v3/')) return;
    const caller = await users.authenticate(keyOf(request));
    if (!caller) throw errors.unauthorized();
    request.caller = caller;
  });
}
