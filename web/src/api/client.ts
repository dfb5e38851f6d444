// The API as the interface calls it: typed by the service's own OpenAPI document (schema.d.ts, generated
// at build), the key from the browser's storage in `Authorization`, and every answer's envelope opened in
// one place so screens see data or an ApiError carrying the server's message and detail.
import createClient from 'openapi-fetch';
import { currentKey, forgetKey } from '../auth/key';
import type { paths } from './schema';

export const api = createClient<paths>({ baseUrl: location.origin });

api.use({
  onRequest({ request }) {
    const key = currentKey();
    if (key) request.headers.set('Authorization', key);
    return request;
  },
  onResponse({ response }) {
    // A key revoked or rotated elsewhere: back to sign-in rather than a page of errors.
    if (response.status === 401) forgetKey();
    return response;
  },
});

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly detail: string | null,
  ) {
    super(detail ? `${message}: ${detail}` : message);
  }
}

interface ErrorBody {
  message?: string | null;
  errors?: { message?: string }[] | null;
  meta?: { detail?: string | null } | null;
}

type Answer<T> = Promise<{ data?: { data?: T | null }; error?: unknown; response: Response }>;

/** The envelope's `data`, or an ApiError (also when a success carries no data). */
export async function unwrap<T>(call: Answer<T>): Promise<T> {
  const value = await unwrapNullable(call);
  if (value === null) throw new ApiError('The server answered without data', 200, null);
  return value;
}

/** The envelope's `data`, null included (operations whose answer may be empty), or an ApiError. */
export async function unwrapNullable<T>(call: Answer<T>): Promise<T | null> {
  const { data, error, response } = await call;
  if (data !== undefined && response.ok) return data.data ?? null;
  throw errorOf(error, response.status);
}

/** The error an error envelope (or any failed answer) stands for. */
export function errorOf(body: unknown, status: number): ApiError {
  const b = (body ?? {}) as ErrorBody;
  const message = b.errors?.[0]?.message ?? b.message ?? `The server answered ${status}`;
  return new ApiError(message, status, b.meta?.detail ?? null);
}

/** A paged answer: the envelope's data with `meta.pagination.has_next_page`, which `unwrap` drops. */
interface PagedAnswer<T> {
  data?: { data?: T | null; meta?: { pagination?: { has_next_page: boolean } | null } };
  error?: unknown;
  response: Response;
}

export interface Paged<T> {
  data: T;
  hasNext: boolean;
}

export async function unwrapPage<T>(call: Promise<PagedAnswer<T>>): Promise<Paged<T>> {
  const answer = await call;
  const data = await unwrap(Promise.resolve(answer));
  return { data, hasNext: answer.data?.meta?.pagination?.has_next_page ?? false };
}

/** Bytes of an endpoint that answers a file (PDF, CycloneDX, firmware files), saved by the browser. */
export async function download(path: string, filename: string, accept = '*/*'): Promise<void> {
  const response = await fetch(path, { headers: { Authorization: currentKey() ?? '', Accept: accept } });
  if (!response.ok) throw errorOf(await response.json().catch(() => null), response.status);
  const url = URL.createObjectURL(await response.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  URL.revokeObjectURL(url);
}
