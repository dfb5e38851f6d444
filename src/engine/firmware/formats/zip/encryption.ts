// The two ways a zip entry is encrypted with a password: PKWARE's traditional stream cipher ("ZipCrypto",
// three CRC-driven keys and a 12-byte header whose last byte checks the password) and WinZip AES (AE-1/AE-2:
// PBKDF2-HMAC-SHA1 over a salt, 1 000 rounds; AES in counter mode with a little-endian counter from 1; a
// two-byte password verifier and a 10-byte HMAC-SHA1 of the ciphertext).
import { createCipheriv, createHmac, pbkdf2Sync, timingSafeEqual } from 'node:crypto';
import { crc32Byte } from '../../../fuzzy/crc32.js';

/** Why an entry could not be decrypted, in words for the report. */
export class WrongPassword extends Error {}

/** ZipCrypto: the entry's data (after its 12-byte header) in the clear; `check` is the header's last byte. */
export function zipCryptoDecrypt(data: Uint8Array, password: string, check: number): Uint8Array {
  let k0 = 0x12345678;
  let k1 = 0x23456789;
  let k2 = 0x34567890;
  const update = (byte: number) => {
    k0 = crc32Byte(k0, byte) >>> 0;
    k1 = (Math.imul((k1 + (k0 & 0xff)) >>> 0, 134775813) + 1) >>> 0;
    k2 = crc32Byte(k2, k1 >>> 24) >>> 0;
  };
  for (const b of Buffer.from(password, 'latin1')) update(b);
  if (data.length < 12) throw new WrongPassword('encrypted entry shorter than its 12-byte header');
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const t = (k2 | 2) & 0xffff;
    const plain = data[i]! ^ ((Math.imul(t, t ^ 1) >>> 8) & 0xff);
    out[i] = plain;
    update(plain);
  }
  if (out[11] !== check) throw new WrongPassword('wrong password (ZipCrypto check byte differs)');
  return out.subarray(12);
}

const AES_KEY_BYTES = [0, 16, 24, 32];

/** WinZip AES: the entry's data in the clear, its authentication code verified. */
export function aesDecrypt(data: Uint8Array, password: string, strength: number): Uint8Array {
  const keyBytes = AES_KEY_BYTES[strength];
  if (!keyBytes) throw new WrongPassword(`unknown AES strength ${strength}`);
  const saltBytes = keyBytes / 2;
  if (data.length < saltBytes + 2 + 10) throw new WrongPassword('AES entry shorter than its salt and codes');
  const salt = data.subarray(0, saltBytes);
  const derived = pbkdf2Sync(Buffer.from(password, 'utf8'), salt, 1000, 2 * keyBytes + 2, 'sha1');
  const verifier = data.subarray(saltBytes, saltBytes + 2);
  if (!timingSafeEqual(derived.subarray(2 * keyBytes), verifier))
    throw new WrongPassword('wrong password (AES verifier differs)');
  const cipherText = data.subarray(saltBytes + 2, data.length - 10);
  const mac = createHmac('sha1', derived.subarray(keyBytes, 2 * keyBytes))
    .update(cipherText)
    .digest()
    .subarray(0, 10);
  if (!timingSafeEqual(mac, data.subarray(data.length - 10)))
    throw new WrongPassword('AES authentication code differs (damaged entry)');
  // Counter blocks 1, 2, 3 … little endian, encrypted in one ECB pass: the keystream.
  const blocks = Math.ceil(cipherText.length / 16);
  const counters = Buffer.alloc(blocks * 16);
  for (let i = 0; i < blocks; i++) counters.writeUInt32LE((i + 1) >>> 0, i * 16);
  const ecb = createCipheriv(`aes-${keyBytes * 8}-ecb`, derived.subarray(0, keyBytes), null).setAutoPadding(false);
  const stream = Buffer.concat([ecb.update(counters), ecb.final()]);
  const out = new Uint8Array(cipherText.length);
  for (let i = 0; i < out.length; i++) out[i] = cipherText[i]! ^ stream[i]!;
  return out;
}
