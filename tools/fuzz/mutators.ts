// Seeded mutations of a seed file: truncation, bit flips, boundary values in header fields (huge counts),
// chunks spliced over other structures (overlap), offsets pointed back at earlier structures or at
// themselves (cycles) and sizes that wrap. The same seed bytes, map and random stream give the same mutant.
import type { Field, FieldMap } from './field-map.js';

export type Random = () => number;

export interface Mutant {
  bytes: Uint8Array;
  /** What was done, for a finding's report: enough to see the damage without a hex diff. */
  steps: string[];
}

/** Boundary values, masked to a field's width: the counts and sizes that overflow arithmetic or allocation. */
const INTERESTING = [
  0n,
  1n,
  0x7fn,
  0x80n,
  0xffn,
  0x7fffn,
  0x8000n,
  0xffffn,
  0x7fff_ffffn,
  0x8000_0000n,
  0xffff_ffffn,
  1n << 53n,
  1n << 63n,
  (1n << 64n) - 1n,
];

/** Most parsers' headers and tables sit in the first 4 KiB; half of the blind damage goes there. */
const HEAD = 0x1000;

const pick = (rand: Random, n: number): number => Math.floor(rand() * n);
const hex = (n: number | bigint): string => `0x${n.toString(16)}`;

function write(bytes: Uint8Array, at: number, width: number, value: bigint, little: boolean): void {
  const v = BigInt.asUintN(width * 8, value);
  for (let k = 0; k < width && at + k < bytes.length; k++) {
    const shift = BigInt(8 * (little ? k : width - 1 - k));
    bytes[at + k] = Number((v >> shift) & 0xffn);
  }
}

/** A random place to damage: a mapped field most of the time, else a blind one, head-biased. */
function target(bytes: Uint8Array, map: FieldMap, rand: Random): Field {
  if (map.fields.length > 0 && rand() < 0.8) return map.fields[pick(rand, map.fields.length)]!;
  const width = ([2, 4, 8] as const)[pick(rand, 3)]!;
  const span = rand() < 0.5 ? Math.min(bytes.length, HEAD) : bytes.length;
  return { at: pick(rand, Math.max(1, span - width + 1)), width, little: rand() < 0.7, space: 'count' };
}

/** A mutation edits `bytes` in place and describes itself; `cut` shortens the result. */
type Mutator = (bytes: Uint8Array, map: FieldMap, rand: Random, cut: (length: number) => void) => string;

const truncate: Mutator = (bytes, _map, rand, cut) => {
  const length = rand() < 0.5 ? pick(rand, Math.min(bytes.length, HEAD) + 1) : pick(rand, bytes.length + 1);
  // Applied last, as a view, so the other steps of the chain keep their offsets.
  cut(length);
  return `truncate to ${length}`;
};

const flipBits: Mutator = (bytes, map, rand) => {
  const flips = 1 + pick(rand, 8);
  const where: string[] = [];
  for (let i = 0; i < flips && bytes.length > 0; i++) {
    const f = target(bytes, map, rand);
    const at = Math.min(bytes.length - 1, f.at + pick(rand, f.width));
    bytes[at]! ^= 1 << pick(rand, 8);
    where.push(hex(at));
  }
  return `flip bits at ${where.join(',')}`;
};

const boundaryValue: Mutator = (bytes, map, rand) => {
  const f = target(bytes, map, rand);
  const value = INTERESTING[pick(rand, INTERESTING.length)]!;
  // Now and then in the other byte order: a field read with the wrong endianness is a huge count too.
  const little = rand() < 0.9 ? f.little : !f.little;
  write(bytes, f.at, f.width, value, little);
  return `set ${f.width * 8}-bit ${little ? 'LE' : 'BE'} at ${hex(f.at)} to ${hex(BigInt.asUintN(f.width * 8, value))}`;
};

const spliceChunk: Mutator = (bytes, map, rand) => {
  if (bytes.length < 2) return 'splice (too short)';
  const place = (): number =>
    map.anchors.file.length > 0 && rand() < 0.6
      ? map.anchors.file[pick(rand, map.anchors.file.length)]! % bytes.length
      : pick(rand, bytes.length);
  const from = place();
  const to = place();
  const length = Math.min(1 + pick(rand, 512), bytes.length - from, bytes.length - to);
  bytes.copyWithin(to, from, from + length);
  return `copy ${length} bytes from ${hex(from)} over ${hex(to)}`;
};

const pointBack: Mutator = (bytes, map, rand, cut) => {
  const pointers = map.fields.filter((f) => f.space !== 'count' && map.anchors[f.space].length > 0);
  if (pointers.length === 0) return boundaryValue(bytes, map, rand, cut);
  const f = pointers[pick(rand, pointers.length)]!;
  // The field's own offset makes a table that contains itself; an anchor makes two structures overlap.
  const anchors = map.anchors[f.space];
  const value = f.space === 'file' && rand() < 0.3 ? f.at : anchors[pick(rand, anchors.length)]!;
  write(bytes, f.at, f.width, BigInt(value), f.little);
  return `point ${f.space} field at ${hex(f.at)} to ${hex(value)}`;
};

const wrapSize: Mutator = (bytes, map, rand) => {
  const f = target(bytes, map, rand);
  // 2^bits minus a small step: offset + size wraps around to just before the offset.
  const step = BigInt([4, 8, 16, 24, f.at][pick(rand, 5)]!);
  write(bytes, f.at, f.width, (1n << BigInt(f.width * 8)) - step, f.little);
  return `wrap ${f.width * 8}-bit at ${hex(f.at)} (2^${f.width * 8} - ${step})`;
};

/** [mutation, weight]: field-aimed damage is weighted over blind damage. */
const MUTATORS: [Mutator, number][] = [
  [truncate, 1],
  [flipBits, 3],
  [boundaryValue, 4],
  [spliceChunk, 2],
  [pointBack, 2],
  [wrapSize, 1],
];
const TOTAL_WEIGHT = MUTATORS.reduce((n, [, w]) => n + w, 0);

/** One to four mutations in a row, applied to a copy of `seed`. */
export function mutate(seed: Uint8Array, map: FieldMap, rand: Random): Mutant {
  const bytes = seed.slice();
  const steps: string[] = [];
  let length = bytes.length;
  const cut = (n: number): void => void (length = Math.min(length, n));
  const count = 1 + pick(rand, 4);
  for (let i = 0; i < count; i++) {
    let r = rand() * TOTAL_WEIGHT;
    const [mutator] = MUTATORS.find(([, w]) => (r -= w) < 0) ?? MUTATORS[0]!;
    steps.push(mutator(bytes, map, rand, cut));
  }
  // A copy, not a view: the mutant's buffer is transferred to the worker whole.
  return { bytes: length < bytes.length ? bytes.slice(0, length) : bytes, steps };
}
