// CRC-32 (IEEE 802.3, the zip/PNG/`crc32` CLI one): reflected polynomial 0xEDB88320, initial value and
// final xor 0xFFFFFFFF.

const POLY = 0xedb88320;

/**
 * Slicing-by-8 tables: TABLES[k * 256 + b] is the CRC of byte b followed by k zero bytes, so one step
 * folds 8 input bytes with 8 independent lookups instead of 8 dependent shift/lookup rounds. 8 KiB of
 * Int32Array, built once at load; 1.0–1.9× the speed of one byte a step on the 2-core dev machine.
 */
const TABLES = buildTables();

function buildTables(): Int32Array {
  const t = new Int32Array(8 * 256);
  for (let b = 0; b < 256; b++) {
    let c = b;
    for (let bit = 0; bit < 8; bit++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
    t[b] = c;
  }
  for (let k = 1; k < 8; k++) {
    for (let b = 0; b < 256; b++) {
      const prev = t[(k - 1) * 256 + b] as number;
      t[k * 256 + b] = (prev >>> 8) ^ (t[prev & 0xff] as number);
    }
  }
  return t;
}

/** CRC-32 of `bytes` as 8 lowercase hex digits ("00000000" for empty input). */
export const crc32 = (bytes: Uint8Array): string => crc32Value(bytes).toString(16).padStart(8, '0');

/** CRC-32 of `bytes` as an unsigned number (zip, gzip, xz, cpio crc …). */
export const crc32Value = (bytes: Uint8Array): number => (crc32Update(-1, bytes) ^ -1) >>> 0;

/** The register after one byte (ciphers that drive keys with CRC steps: ZipCrypto). */
export const crc32Byte = (crc: number, byte: number): number => (crc >>> 8) ^ (TABLES[(crc ^ byte) & 0xff] as number);

/**
 * The register after feeding `bytes` to a CRC-32 register holding `crc` — no initial or final inversion, so
 * variants that skip them (JFFS2: seed 0, no final xor) and running CRCs over pieces use it directly.
 */
export function crc32Update(crc: number, bytes: Uint8Array): number {
  const t = TABLES;
  const n = bytes.length;
  let c = crc | 0;
  let i = 0;
  for (const end = n - (n % 8); i < end; i += 8) {
    const lo =
      c ^
      ((bytes[i] as number) |
        ((bytes[i + 1] as number) << 8) |
        ((bytes[i + 2] as number) << 16) |
        ((bytes[i + 3] as number) << 24));
    c =
      (t[1792 + (lo & 0xff)] as number) ^
      (t[1536 + ((lo >>> 8) & 0xff)] as number) ^
      (t[1280 + ((lo >>> 16) & 0xff)] as number) ^
      (t[1024 + (lo >>> 24)] as number) ^
      (t[768 + (bytes[i + 4] as number)] as number) ^
      (t[512 + (bytes[i + 5] as number)] as number) ^
      (t[256 + (bytes[i + 6] as number)] as number) ^
      (t[bytes[i + 7] as number] as number);
  }
  for (; i < n; i++) c = (c >>> 8) ^ (t[(c ^ (bytes[i] as number)) & 0xff] as number);
  return c >>> 0;
}
