import type { FunctionGraph } from '../cfg/types.js';
import type { FoundString } from './extract.js';

export interface StringReference {
  /** Index into the strings array. */
  string: number;
  /** Address of the referencing instruction. */
  site: number;
  /** Index of the referencing function in graph.functions. */
  func: number;
}

/**
 * Instruction references that land in a string: at its start, or inside it (linkers merge a string that
 * is the tail of another, and code then points into the longer one).
 */
export function stringReferences(strings: FoundString[], graph: FunctionGraph): StringReference[] {
  const starts = Float64Array.from(strings, (s) => s.vaddr);
  const out: StringReference[] = [];
  const { site, func, target } = graph.refs;
  for (let i = 0; i < target.length; i++) {
    const t = target[i]!;
    let lo = 0;
    let hi = starts.length - 1;
    let hit = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid]! <= t) {
        hit = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    if (hit >= 0 && t < starts[hit]! + strings[hit]!.byteLength)
      out.push({ string: hit, site: site[i]!, func: func[i]! });
  }
  return out;
}
