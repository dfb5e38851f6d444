// Finds the chunks of an image: every format's magics located with the native byte search, each hit probed
// (a structure check, not the magic alone), and the chunks accepted in offset order without overlap — the
// first valid chunk at a place wins, in the registry's order when two start together.
import { DecodeError, OutputLimitError } from './compression/errors.js';
import type { FirmwareFormat, Probed, ReadContext } from './format.js';

export interface FoundChunk {
  offset: number;
  format: FirmwareFormat;
  probed: Probed;
}

/** Hits of one magic probed per scan: past this the image is noise (a magic of two bytes in random data). */
const MAX_HITS_PER_MAGIC = 200_000;

interface Candidate {
  start: number;
  rank: number;
  format: FirmwareFormat;
}

function candidates(data: Uint8Array, formats: readonly FirmwareFormat[]): Candidate[] {
  const haystack = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  const found: Candidate[] = [];
  formats.forEach((format, rank) => {
    for (const magic of format.magics) {
      const needle = Buffer.from(magic.bytes);
      const at = magic.at ?? 0;
      let hits = 0;
      for (
        let i = haystack.indexOf(needle, at);
        i >= 0 && hits < MAX_HITS_PER_MAGIC;
        i = haystack.indexOf(needle, i + 1)
      ) {
        found.push({ start: i - at, rank, format });
        hits++;
      }
    }
  });
  return found.sort((a, b) => a.start - b.start || a.rank - b.rank);
}

/**
 * The chunks of `data`, in order. A probe that throws a decode error or passes the budget is no chunk there;
 * `timeUp` ends the scan early (what was found is kept).
 */
export function findChunks(
  data: Uint8Array,
  formats: readonly FirmwareFormat[],
  ctx: ReadContext,
  timeUp: () => boolean,
): FoundChunk[] {
  const chunks: FoundChunk[] = [];
  let coveredTo = 0;
  let lastStart = -1;
  let lastRank = -1;
  for (const c of candidates(data, formats)) {
    if (c.start < coveredTo || (c.start === lastStart && c.rank === lastRank)) continue;
    lastStart = c.start;
    lastRank = c.rank;
    if (timeUp()) break;
    let probed: Probed | null;
    try {
      probed = c.format.probe(data, c.start, ctx);
    } catch (err) {
      // A reader's own fault (a bug hostile bytes found) costs that chunk, never the image: it is recorded.
      if (!(err instanceof DecodeError || err instanceof OutputLimitError))
        ctx.problem(internalError(c.format.name, err));
      continue;
    }
    if (!probed || probed.size <= 0) continue;
    chunks.push({ offset: c.start, format: c.format, probed });
    coveredTo = c.start + probed.size;
  }
  return chunks;
}

/** How a reader's unexpected failure is recorded (the fuzz run looks for this prefix). */
export const internalError = (format: string, err: unknown) =>
  `internal error in the ${format} reader: ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}`;
