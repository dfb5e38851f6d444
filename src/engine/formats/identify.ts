// Which container a file is, from its first bytes (the formats of registry.ts, in order). Anything
// unrecognised, or recognised but too truncated to read, is reported as a raw blob rather than an error.
import type { BinaryIdentity } from '../../contracts/result.js';
import { FORMATS } from './registry.js';

/** The identity of bytes we cannot place; a fresh object each call so callers may amend it. */
export function rawIdentity(): BinaryIdentity {
  return {
    format: 'raw',
    architecture: 'unknown',
    bits: null,
    endianness: null,
    platform: 'unknown',
    binaryType: 'raw',
    dynamic: false,
    entryPoint: null,
    baseAddress: null,
    debug: false,
  };
}

/**
 * Identify a binary from a prefix of it (callers pass the first 64 KiB). Bytes past the prefix, or past
 * `fileSize` when the caller's prefix is longer than the file claims, are treated as unavailable.
 */
export function identify(head: Uint8Array, fileSize: number): BinaryIdentity {
  // A nonsensical fileSize (NaN, negative) says nothing about the bytes, so the prefix alone decides.
  const available =
    Number.isFinite(fileSize) && fileSize >= 0 ? Math.min(head.length, Math.floor(fileSize)) : head.length;
  const bytes = available < head.length ? head.subarray(0, available) : head;
  return FORMATS.find((f) => f.matches(bytes))?.identify(bytes) ?? rawIdentity();
}
