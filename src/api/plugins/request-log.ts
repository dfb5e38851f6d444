import type { FastifyInstance } from 'fastify';

/**
 * One log line per request, when it is answered: method, path, status, time. Failures worth a closer look
 * (5xx) are warnings; the error handler logs their cause.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const ms = Math.round(reply.elapsedTime);
    const line = `${request.method} ${request.url.split('?')[0] ?? ''} ${reply.statusCode} ${ms} ms`;
    if (reply.statusCode >= 500) request.log.warn({ status: reply.statusCode, ms }, line);
    else request.log.info({ status: reply.statusCode, ms }, line);
  });
}
