import type { Page } from './functions.js';

/**
 * A page addressed by `offset`/`limit` from rows fetched with `limit + 1` (the extra row tells whether
 * another page follows); `page_number` is the 1-based page the offset falls in.
 */
export function offsetPaged<T>(rows: T[], offset: number, limit: number): { items: T[]; page: Page } {
  return {
    items: rows.slice(0, limit),
    page: { page_size: limit, page_number: Math.floor(offset / limit) + 1, has_next_page: rows.length > limit },
  };
}

/** A /v3 page body: the results and where they sit, with no envelope. */
export const v3Page = <T>(p: { items: T[]; page: Page }) => ({ ...p.page, results: p.items });
