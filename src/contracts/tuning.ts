import { Type } from '@sinclair/typebox';

/** The published description of a tuning parameter that has no effect. */
const IGNORED =
  "Accepted for compatibility with the reference's clients, and ignored: a server setting that leaked into " +
  "the reference's SDKs. Binlens never lets a request redirect its storage or network access; the operator " +
  'configures storage through the environment.';

/**
 * The six tuning query parameters the spec lists on many operations. They name server-side storage
 * settings; the server accepts and validates them but never lets a caller redirect storage or network
 * access with them (see docs/decisions.md). Only `max_retry_attempts` has an effect: on create/requeue
 * it bounds the job's retries (clamped to 0..10). Their descriptions say so in /docs.
 */
const ignoredText = () => Type.Optional(Type.String({ description: IGNORED }));

export const TuningQuery = {
  endpoint_url: ignoredText(),
  local_cache_dir: ignoredText(),
  local_cache_max_size_mb: Type.Optional(Type.Integer({ description: IGNORED })),
  customer_samples_bucket: ignoredText(),
  firmware_samples_bucket: ignoredText(),
  max_retry_attempts: Type.Optional(
    Type.Integer({
      default: 5,
      description:
        "Accepted for compatibility with the reference's clients. On create and requeue it bounds how often " +
        'a failing analysis job is retried (clamped to 0..10); elsewhere it is ignored.',
    }),
  ),
};

export const Tuning = Type.Object(TuningQuery);

/** The application headers of create and requeue: the reference's and the spec's name; both are ignored. */
export const ApplicationHeaders = Type.Object({
  'x-service-application': Type.Optional(
    Type.String({ description: "The calling application (the spec's name for it). Accepted and ignored." }),
  ),
  'x-reveng-application': Type.Optional(
    Type.String({ description: "The calling application (the reference's name for it). Accepted and ignored." }),
  ),
});
