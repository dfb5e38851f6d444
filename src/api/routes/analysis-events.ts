import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IdParam } from '../../contracts/index.js';
import type { AnalysisProgressService } from '../../services/index.js';
import { operation } from './schema.js';

const EventStream = Type.String({
  description:
    'text/event-stream: `stage` events (as GET /v2/analysis-stages), `log` events ({timestamp, line}), `status` ' +
    'events ({analysis_id, analysis_status}) when it changes, and `keep-alive` comments; ends once the ' +
    'analysis is Complete or in Error',
});

/** GET /v2/analyses/{id}/events (Binlens extension): an analysis's progress as server-sent events. */
export const analysisEventsRoute =
  (progress: AnalysisProgressService): FastifyPluginAsyncTypebox =>
  async (app) => {
    app.get(
      '/v2/analyses/:analysis_id/events',
      operation(['AnalysesCore'], 'streamAnalysisEvents', EventStream, [404], { params: IdParam('analysis_id') }),
      async (req, reply) => {
        const stop = new AbortController();
        // Checked before the stream starts, so a missing or hidden analysis is an ordinary 404.
        const events = await progress.watch(req.caller, req.params.analysis_id, stop.signal);
        reply.hijack();
        req.raw.once('close', () => stop.abort());
        reply.raw.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
          connection: 'keep-alive',
        });
        try {
          for await (const e of events) {
            reply.raw.write(
              e.event === 'keep-alive' ? ': keep-alive\n\n' : `event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`,
            );
          }
        } catch (err) {
          // The analysis was deleted or hidden while watched: the stream just ends.
          req.log.info({ err }, 'analysis event stream ended early');
        } finally {
          stop.abort();
          reply.raw.end();
        }
      },
    );
  };
