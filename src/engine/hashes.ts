// File fingerprints (digests, CRC-32, the TLSH and ssdeep similarity hashes) and byte-level Shannon entropy.
import { createHash } from 'node:crypto';
import type { FileHashes } from '../contracts/result.js';
import { crc32, ssdeepDigest, tlshDigest } from './fuzzy/index.js';

/**
 * Every digest of the file, one pass over the bytes each (six in all). OpenSSL's three run at 80–390 MB/s
 * here; TLSH and ssdeep, per-byte JavaScript, dominate (see docs/decisions.md for the figures).
 */
export function hashBytes(bytes: Uint8Array): FileHashes {
  const hex = (algorithm: string): string => createHash(algorithm).update(bytes).digest('hex');
  return {
    md5: hex('md5'),
    sha1: hex('sha1'),
    sha256: hex('sha256'),
    crc32: crc32(bytes),
    tlsh: tlshDigest(bytes),
    ssdeep: ssdeepDigest(bytes),
  };
}

/** Shannon entropy in bits per byte (0 for empty input, 8 for uniform bytes), rounded to 4 decimals. */
export function shannonEntropy(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  // Float64 counts: Uint32 would wrap on inputs of 4 GiB and more.
  const counts = new Float64Array(256);
  // Indexed loop: several times faster than for-of over a typed array on large files.
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    counts[b] = (counts[b] as number) + 1;
  }
  let entropy = 0;
  for (const count of counts) {
    if (count === 0) continue;
    const p = count / bytes.length;
    entropy -= p * Math.log2(p);
  }
  return Math.round(entropy * 1e4) / 1e4;
}
