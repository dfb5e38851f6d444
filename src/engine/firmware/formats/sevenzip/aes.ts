// 7zAES (method 06F10701): AES-256-CBC under a key that is SHA-256 over 2^NumCyclesPower repetitions of
// salt ‖ password (UTF-16LE) ‖ a 64-bit little-endian round counter — 2^19 rounds by default, about 15 MB
// hashed per key. The properties carry the power, the salt and the IV.
import { createDecipheriv, createHash } from 'node:crypto';
import { DecodeError } from '../../compression/errors.js';

/** A folder is encrypted and the task has no password. */
export class PasswordNeeded extends DecodeError {}

/**
 * 2^24 rounds hash about 0.5 GB (a second or two); more would let a hostile archive cost minutes per
 * folder, and 7-Zip writes 19. 0x3F is the special "no hashing" power (salt ‖ password taken as the key).
 */
const MAX_CYCLES_POWER = 24;
const RAW_KEY = 0x3f;
const KEY_SIZE = 32;
const BLOCK = 16;
/** Rounds are hashed in batches of about this many bytes: one update call per batch, not per round. */
const BATCH_BYTES = 1 << 20;

export interface AesParams {
  cyclesPower: number;
  salt: Uint8Array;
  iv: Uint8Array;
}

/**
 * Properties: byte 0 holds the power (low 6 bits) and the top bits of the salt and IV sizes; byte 1 their
 * low nibbles (salt high, IV low); then the salt and the IV (zero-padded to 16 bytes).
 */
export function aesParams(props: Uint8Array): AesParams {
  if (props.length < 1) throw new DecodeError('7zAES properties missing');
  const b0 = props[0]!;
  const cyclesPower = b0 & 0x3f;
  const iv = new Uint8Array(BLOCK);
  if ((b0 & 0xc0) === 0) {
    if (props.length !== 1) throw new DecodeError('7zAES properties malformed');
    return { cyclesPower, salt: new Uint8Array(0), iv };
  }
  if (props.length < 2) throw new DecodeError('7zAES properties malformed');
  const b1 = props[1]!;
  const saltSize = (b0 >>> 7) + (b1 >>> 4);
  const ivSize = ((b0 >>> 6) & 1) + (b1 & 0x0f);
  if (props.length !== 2 + saltSize + ivSize) throw new DecodeError('7zAES properties malformed');
  iv.set(props.subarray(2 + saltSize));
  return { cyclesPower, salt: props.slice(2, 2 + saltSize), iv };
}

/** The AES key for `password` (the caller caches it: every folder of an archive usually shares one). */
export function aesKey(params: AesParams, password: string): Uint8Array {
  const { cyclesPower, salt } = params;
  const pw = Buffer.from(password, 'utf16le');
  if (cyclesPower === RAW_KEY) {
    const key = new Uint8Array(KEY_SIZE);
    key.set(Buffer.concat([salt, pw]).subarray(0, KEY_SIZE));
    return key;
  }
  if (cyclesPower > MAX_CYCLES_POWER)
    throw new DecodeError(`7zAES key needs 2^${cyclesPower} SHA-256 rounds (more than 2^${MAX_CYCLES_POWER}: refused)`);
  const rounds = 2 ** cyclesPower;
  const record = salt.length + pw.length + 8;
  const perBatch = Math.max(1, Math.min(rounds, Math.floor(BATCH_BYTES / record)));
  const batch = Buffer.alloc(perBatch * record);
  for (let r = 0; r < perBatch; r++) {
    batch.set(salt, r * record);
    batch.set(pw, r * record + salt.length);
  }
  const hash = createHash('sha256');
  // Counters stay below 2^24, so only the low four of their eight bytes ever change.
  for (let round = 0; round < rounds; round += perBatch) {
    const n = Math.min(perBatch, rounds - round);
    for (let r = 0, at = salt.length + pw.length; r < n; r++, at += record) batch.writeUInt32LE(round + r, at);
    hash.update(batch.subarray(0, n * record));
  }
  return hash.digest();
}

/** The first `size` bytes of the decrypted stream (7-Zip pads the plaintext to whole blocks). */
export function aesDecrypt(input: Uint8Array, params: AesParams, key: Uint8Array, size: number): Uint8Array {
  const blocks = Math.ceil(size / BLOCK) * BLOCK;
  if (blocks > input.length) throw new DecodeError('7zAES data shorter than its unpacked size');
  const decipher = createDecipheriv('aes-256-cbc', key, params.iv).setAutoPadding(false);
  const out = Buffer.concat([decipher.update(input.subarray(0, blocks)), decipher.final()]);
  return new Uint8Array(out.buffer, out.byteOffset, size);
}
