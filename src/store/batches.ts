// Rows per statement: 1000 rows of up to 32 columns stay under SQLite's 32 766 bound parameters (and
// PostgreSQL's 65 535); 1000 ids keep an `in (…)` list as far under both.
export const BATCH = 1000;

/** Runs `step` over consecutive slices of at most BATCH items, one after the other. */
export async function inBatches<T>(items: T[], step: (batch: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += BATCH) await step(items.slice(i, i + BATCH));
}
