import type { Kysely } from 'kysely';
import { yieldToEventLoop } from './batches.js';
import type { Database } from './schema.js';

/** What one step of a scan asks of the query: matches in ids [from, to), counted or a page of them. */
export interface ScanStep<R> {
  count(from: number, to: number): Promise<number>;
  rows(from: number, to: number, skip: number, limit: number): Promise<R[]>;
}

/** Lowest and highest id of a table, or null when it is empty. */
export async function idRange(db: Kysely<Database>, table: 'functions' | 'analyses') {
  // Two queries: SQLite answers a lone min() or max() from the index, but scans the table for both at once.
  const end = (dir: 'asc' | 'desc') => db.selectFrom(table).select('id').orderBy('id', dir).limit(1).executeTakeFirst();
  const [lo, hi] = [await end('asc'), await end('desc')];
  return lo && hi ? { lo: lo.id, hi: hi.id } : null;
}

/**
 * A page of matches of a filter that no index serves (a substring match), found by walking the id range
 * `width` ids at a time in `order`, yielding to the event loop between steps: SQLite runs on the loop, so
 * one request holds it for one step at most, and a page of common matches ends after a step or two. Steps
 * wholly before the page are only counted.
 */
export async function scanIds<R>(
  range: { lo: number; hi: number } | null,
  page: { offset: number; limit: number },
  order: 'asc' | 'desc',
  width: number,
  step: ScanStep<R>,
): Promise<R[]> {
  const out: R[] = [];
  if (!range) return out;
  let skip = page.offset;
  const steps = Math.floor((range.hi - range.lo) / width) + 1;
  for (let i = 0; i < steps && out.length < page.limit; i++) {
    if (i > 0) await yieldToEventLoop();
    const from = order === 'asc' ? range.lo + i * width : range.hi + 1 - (i + 1) * width;
    const to = from + width;
    if (skip > 0) {
      const n = await step.count(from, to);
      if (n <= skip) {
        skip -= n;
        continue;
      }
    }
    out.push(...(await step.rows(from, to, skip, page.limit - out.length)));
    skip = 0;
  }
  return out;
}
