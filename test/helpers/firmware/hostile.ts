// Hostile input for the firmware readers' tests: seeded truncations and byte mutations of a valid input, each
// of which must end fast with a result, DecodeError or OutputLimitError — nothing else escapes, nothing hangs.
import assert from 'node:assert/strict';
import { DecodeError, OutputLimitError } from '../../../src/engine/firmware/compression/errors.js';
import type { FirmwareFormat, Entry } from '../../../src/engine/firmware/format.js';
import { entriesOf, readContext } from './unpack.js';

export interface Damage {
  /** The seeded generator (seededRandom) that picks every cut and change; share one to vary several inputs. */
  random: () => number;
  /** How many damaged copies. */
  cases: number;
  /** How many of them, first, are the input cut short at a random length (default 100). */
  truncations?: number;
  /** Bytes changed in each of the others: 1 to this many (default 4). */
  maxHits?: number;
  /** The values written (default: any byte). */
  alphabet?: Uint8Array;
  /** How far into the input a changed byte may land (default: anywhere); called once a hit. */
  span?: (i: number, random: () => number) => number;
  /** Called after the changes of case `i`: to re-seal checksums so the damaged fields get read. */
  after?: (bytes: Uint8Array, i: number, random: () => number) => void;
}

export interface DamagedCase {
  /** The case's number, from 0. */
  i: number;
  bytes: Uint8Array;
  truncated: boolean;
}

/** Damaged copies of `input`: truncations, then copies with a few bytes changed. */
export function* damaged(input: Uint8Array, damage: Damage): Generator<DamagedCase> {
  const { random: next, cases, truncations = 100, maxHits = 4, alphabet, span, after } = damage;
  for (let i = 0; i < cases; i++) {
    if (i < truncations) {
      yield { i, bytes: input.subarray(0, Math.floor(next() * input.length)), truncated: true };
      continue;
    }
    const bytes = Uint8Array.from(input);
    for (let k = 1 + Math.floor(next() * maxHits); k > 0; k--) {
      const r = next();
      const at = Math.floor(r * Math.min(span ? span(i, next) : bytes.length, bytes.length));
      bytes[at] = alphabet ? alphabet[Math.floor(next() * alphabet.length)]! : Math.floor(next() * 256);
    }
    after?.(bytes, i, next);
    yield { i, bytes, truncated: false };
  }
}

/** Whether a reader's error is one it may throw on bad input. */
export const isExpected = (err: unknown) => err instanceof DecodeError || err instanceof OutputLimitError;

/**
 * Runs one damaged case, which may end normally or in DecodeError or OutputLimitError (nothing else), within
 * `ms` milliseconds. Returns whether it threw.
 */
export function endsSafely(run: () => void, ms = 1000, label = 'a case'): boolean {
  const started = performance.now();
  let threw = false;
  try {
    run();
  } catch (err) {
    if (!isExpected(err)) throw err;
    threw = true;
  }
  assert.ok(performance.now() - started < ms, `${label} took too long`);
  return threw;
}

/**
 * Probes `format` at the start of each damaged copy of `image` and reads all it holds (with `budget(i)` bytes
 * to decode): each must end safely and fast (`ms`), a chunk found must lie within the bytes, and its files
 * must carry their bytes. `truncatedRefused`: the probe must find no chunk in a truncated copy.
 */
export function assertSurvivesDamage(
  format: FirmwareFormat,
  image: Uint8Array,
  damage: Damage & { budget?: (i: number) => number; ms?: number; truncatedRefused?: boolean },
): void {
  for (const { i, bytes, truncated } of damaged(image, damage))
    endsSafely(
      () => {
        const got = entriesOf(format, bytes, 0, null, damage.budget?.(i));
        if (truncated && damage.truncatedRefused) assert.equal(got, null, `case ${i}: truncated, yet found`);
        if (!got) return;
        assert.ok(got.size > 0 && got.size <= bytes.length, `case ${i}: extent ${got.size} of ${bytes.length}`);
        for (const e of got.entries) if (e.kind === 'file') assert.ok(e.data, `case ${i}: ${e.path} has bytes`);
      },
      damage.ms,
      `case ${i}`,
    );
}

/**
 * Decodes each damaged copy of `input`: each must end safely and fast, and a stream decoded must not claim
 * more input than there is. `truncatedFail`: every truncated copy must throw. Returns how many threw.
 */
export function assertDecoderSurvivesDamage(
  decode: (input: Uint8Array) => { consumed: number },
  input: Uint8Array,
  damage: Damage & { truncatedFail?: boolean },
): number {
  let threw = 0;
  for (const { i, bytes, truncated } of damaged(input, damage)) {
    const failed = endsSafely(
      () => assert.ok(decode(bytes).consumed <= bytes.length, `case ${i}: consumed past its input`),
      1000,
      `case ${i}`,
    );
    if (truncated && damage.truncatedFail) assert.ok(failed, `case ${i}: truncated, yet decoded`);
    if (failed) threw++;
  }
  return threw;
}

/** What reading a damaged chunk gave before it ended, and the typed error it ended in, if any. */
export interface Outcome {
  entries: Entry[];
  problems: string[];
  error?: Error;
}

/** Probes `format` at data[0] and reads all it holds; null when the probe finds nothing. Other errors fail. */
export function readDamaged(format: FirmwareFormat, data: Uint8Array, budget: number): Outcome | null {
  const ctx = readContext(null, budget);
  const entries: Entry[] = [];
  try {
    const probed = format.probe(data, 0, ctx);
    if (!probed) return null;
    for (const e of probed.entries(ctx)) entries.push(e);
  } catch (err) {
    if (isExpected(err)) return { entries, problems: ctx.problems, error: err as Error };
    throw err;
  }
  return { entries, problems: ctx.problems };
}

/**
 * Reads each damaged case (its bytes, and the budget to decode them) with readDamaged; each must end within
 * `ms`. Returns a tally of what came out — entries, problems, typed errors, refusals, slowest case — to report.
 */
export function tallyDamage(
  format: FirmwareFormat,
  cases: Iterable<{ bytes: Uint8Array; budget: number }>,
  ms = 1000,
): string {
  const tally = { entries: 0, problems: 0, errors: 0, refused: 0 };
  let slowest = 0;
  for (const { bytes, budget } of cases) {
    const started = performance.now();
    const out = readDamaged(format, bytes, budget);
    slowest = Math.max(slowest, performance.now() - started);
    if (!out) tally.refused++;
    else {
      tally.entries += out.entries.length;
      tally.problems += out.problems.length;
      if (out.error) tally.errors++;
    }
  }
  assert.ok(slowest < ms, `every case ends within ${ms} ms (slowest ${slowest.toFixed(0)} ms)`);
  return `${JSON.stringify(tally)}, slowest case ${slowest.toFixed(1)} ms`;
}
