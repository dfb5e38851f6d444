// Rows per statement: 1000 rows of up to 32 columns stay under SQLite's 32 766 bound parameters (and
// PostgreSQL's 65 535); 1000 ids keep an `in (…)` list as far under both.
export const BATCH = 1000;

/** Runs `step` over consecutive slices of at most `size` items, one after the other. */
export async function inBatches<T>(
  items: T[],
  step: (batch: T[]) => Promise<unknown>,
  size: number = BATCH,
): Promise<void> {
  for (let i = 0; i < items.length; i += size) await step(items.slice(i, i + size));
}

/** Lets timers, I/O and other requests' queries run: between the chunks of long store work. */
export const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * As inBatches, yielding to the event loop after each slice: for work too long for one transaction, each
 * slice its own statement or short transaction (see analysis-rows.ts).
 */
export const inChunks = <T>(items: T[], step: (batch: T[]) => Promise<unknown>, size: number = BATCH) =>
  inBatches(
    items,
    async (batch) => {
      await step(batch);
      await yieldToEventLoop();
    },
    size,
  );
