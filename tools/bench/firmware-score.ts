// Scoring of the firmware benchmark (firmware.ts): the executables an unpacker left in its output tree, by
// SHA-256, against those put into the image; and its chunk offsets against where the parts were put.
//
// The rule, the same for both tools: every regular file under the output directory (symbolic links are not
// followed) that starts as an ELF file (\x7fELF) or a PE file (MZ, and "PE\0\0" where e_lfanew points) is
// an executable found. Executables are counted by distinct SHA-256: a file recovered twice (carved copies,
// a link written as a copy, the same file seen at two depths) is one recovery, never a false positive. An
// executable whose hash is not one put in — a truncated or over-long carve, a corrupt decompression — is a
// false positive. recall = expected hashes found / expected; precision = expected hashes found / distinct
// hashes found (undefined when nothing was found).
import { createHash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';

/** SHA-256 → the output paths it was found at. */
export type FoundExecutables = Map<string, string[]>;

/** Bytes read to tell an executable: the MZ header's e_lfanew and a PE signature up to 4 KiB in. */
const HEAD = 4096;

function isExecutable(head: Uint8Array, n: number): boolean {
  if (n >= 4 && head[0] === 0x7f && head[1] === 0x45 && head[2] === 0x4c && head[3] === 0x46) return true;
  if (n < 0x40 || head[0] !== 0x4d || head[1] !== 0x5a) return false;
  const pe = new DataView(head.buffer, head.byteOffset, n).getUint32(0x3c, true);
  return pe + 4 <= n && head[pe] === 0x50 && head[pe + 1] === 0x45 && head[pe + 2] === 0 && head[pe + 3] === 0;
}

export function executablesIn(root: string): FoundExecutables {
  const found: FoundExecutables = new Map();
  const head = new Uint8Array(HEAD);
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      if (!e.isFile()) continue;
      const fd = openSync(path, 'r');
      let n: number;
      try {
        n = readSync(fd, head, 0, HEAD, 0);
      } finally {
        closeSync(fd);
      }
      if (!isExecutable(head, n)) continue;
      const sha = createHash('sha256').update(readFileSync(path)).digest('hex');
      found.set(sha, [...(found.get(sha) ?? []), path.slice(root.length + 1)]);
    }
  };
  walk(root);
  return found;
}

export interface Score {
  /** Expected hashes found. */
  hits: number;
  expected: number;
  /** Distinct executable hashes found. */
  found: number;
  recall: number;
  precision: number | null;
  /** Labels of the expected executables not found. */
  missed: string[];
  /** Output paths of the executables found that were not put in (one path per hash). */
  extra: string[];
}

export function score(found: FoundExecutables, expected: readonly { label: string; sha256: string }[]): Score {
  const hits = expected.filter((x) => found.has(x.sha256)).length;
  const wanted = new Set(expected.map((x) => x.sha256));
  return {
    hits,
    expected: expected.length,
    found: found.size,
    recall: expected.length ? hits / expected.length : 1,
    precision: found.size ? hits / found.size : null,
    missed: expected.filter((x) => !found.has(x.sha256)).map((x) => x.label),
    extra: [...found].filter(([sha]) => !wanted.has(sha)).map(([, paths]) => paths[0]!),
  };
}

/** Top-level parts whose start no top-level chunk has (an exact offset is the only match). */
export function offsetMisses(
  parts: readonly { offset: number; label: string }[],
  chunks: readonly { offset: number }[],
): { offset: number; label: string }[] {
  const starts = new Set(chunks.map((c) => c.offset));
  return parts.filter((p) => !starts.has(p.offset));
}
