import { Type } from '@sinclair/typebox';

/**
 * The six tuning query parameters the spec lists on many operations. They name server-side storage
 * settings; the server accepts and validates them but never lets a caller redirect storage or network
 * access with them (see docs/decisions.md). Only `max_retry_attempts` has an effect: on create/requeue
 * it bounds the job's retries (clamped to 0..10).
 */
export const TuningQuery = {
  endpoint_url: Type.Optional(Type.String()),
  local_cache_dir: Type.Optional(Type.String()),
  local_cache_max_size_mb: Type.Optional(Type.Integer()),
  customer_samples_bucket: Type.Optional(Type.String()),
  firmware_samples_bucket: Type.Optional(Type.String()),
  max_retry_attempts: Type.Optional(Type.Integer({ default: 5 })),
};

export const Tuning = Type.Object(TuningQuery);
