import type { BinaryImage } from '../formats/image.js';
import { regionAt, type CodeRegion } from './regions.js';
import type { FunctionSource } from './types.js';

export interface Seed {
  start: number;
  /** Known end (symbol size, unwind range, client boundary), or -1. */
  end: number;
  name: string | null;
  source: FunctionSource;
  /** ARM: Thumb (true) or A32 (false) code; null when nothing says (the image's default applies). */
  thumb: boolean | null;
}

export interface ClientFunction {
  start: number;
  end: number;
  name: string;
}

const RANK: Record<FunctionSource, number> = {
  client: 0,
  symbol: 1,
  export: 2,
  entry: 3,
  unwind: 4,
  call: 5,
  pointer: 6,
  tail: 7,
  gap: 8,
};

/**
 * Function starts the file itself vouches for. When several sources name one address the strongest
 * decides the source, a symbol supplies the name and the first known extent is kept.
 */
export function collectSeeds(
  image: BinaryImage,
  regions: CodeRegion[],
  client: ClientFunction[] = [],
): Map<number, Seed> {
  const seeds = new Map<number, Seed>();
  const add = (
    start: number,
    end: number,
    name: string | null,
    source: FunctionSource,
    thumb: boolean | null = null,
  ) => {
    const r = regionAt(regions, start);
    if (!r || r.stubs) return;
    const prev = seeds.get(start);
    if (!prev) {
      seeds.set(start, { start, end: end > start ? end : -1, name, source, thumb });
      return;
    }
    if (RANK[source] < RANK[prev.source]) prev.source = source;
    if (!prev.name && name) prev.name = name;
    if (prev.end < 0 && end > start) prev.end = end;
    prev.thumb ??= thumb;
  };
  for (const f of client) add(f.start, f.end, f.name, 'client');
  if (client.length > 0) return seeds; // the plugin's boundaries win outright
  for (const s of image.symbols) {
    // An ARM symbol without the Thumb bit is A32 code; elsewhere the flag means nothing.
    if (s.kind === 'function') add(s.vaddr, s.size > 0 ? s.vaddr + s.size : -1, s.name, 'symbol', s.thumb ?? false);
  }
  for (const e of image.exports) add(e.vaddr, -1, e.name, 'export');
  for (const e of image.entryPoints) add(e.vaddr, -1, null, 'entry', e.thumb ?? null);
  for (const u of image.unwind) add(u.start, u.end, null, 'unwind');
  for (const a of image.functionStarts ?? []) add(a, -1, null, 'unwind');
  return seeds;
}
