// Each query function with the names proposed for it: matching candidates (functions of other binaries,
// best first) and unstrip suggestions. A suggestion naming one of the function's candidates marks that
// candidate rather than adding a row, so its similarity and the diff stay at hand.
import type { MatchedFunction, QueryMatch, Suggestion } from './runs';

export type Source = 'Auto-unstrip' | 'AI unstrip';

export interface Candidate {
  /** Unique within its query function. */
  key: string;
  name: string;
  mangledName: string;
  /** The candidate function, when matching found one (unstrip suggestions alone have none). */
  fn: MatchedFunction | null;
  similarity: number | null;
  confidence: number | null;
  suggestedBy: Source[];
}

export interface QueryFunction {
  id: number;
  name: string;
  vaddr: number;
}

export interface QueryRow {
  fn: QueryFunction;
  candidates: Candidate[];
  /** The likeliest names over all candidates, with their confidence (matching's evidence). */
  names: { name: string; confidence: number }[];
  best: number;
}

const bySimilarity = (x: Candidate, y: Candidate) =>
  (y.similarity ?? -1) - (x.similarity ?? -1) || (y.confidence ?? -1) - (x.confidence ?? -1);

export function buildRows(
  functions: readonly QueryFunction[],
  matches: readonly QueryMatch[],
  suggestions: readonly { source: Source; list: readonly Suggestion[] }[],
  rejected: ReadonlySet<string>,
): QueryRow[] {
  const byFunction = new Map<number, { candidates: Candidate[]; names: QueryRow['names'] }>();
  const entry = (id: number) => {
    let e = byFunction.get(id);
    if (!e) byFunction.set(id, (e = { candidates: [], names: [] }));
    return e;
  };
  for (const m of matches) {
    const e = entry(m.function_id);
    e.names = m.confidences ?? [];
    for (const f of m.matched_functions)
      e.candidates.push({
        key: `f${f.function_id}`,
        name: f.function_name,
        mangledName: f.mangled_name,
        fn: f,
        similarity: f.similarity ?? null,
        confidence: f.confidence ?? null,
        suggestedBy: [],
      });
  }
  for (const { source, list } of suggestions)
    for (const s of list) {
      const e = entry(s.function_id);
      const name = s.suggested_demangled_name;
      const same = e.candidates.find((c) => c.name === name);
      if (same) same.suggestedBy.push(source);
      else
        e.candidates.push({
          key: `n${name}`,
          name,
          mangledName: s.suggested_name ?? name,
          fn: null,
          similarity: null,
          confidence: null,
          suggestedBy: [source],
        });
    }

  const rows: QueryRow[] = [];
  for (const fn of functions) {
    const e = byFunction.get(fn.id);
    const candidates = e?.candidates.filter((c) => !rejected.has(rejectionKey(fn.id, c))) ?? [];
    if (candidates.length === 0) continue;
    // Suggestions first (they are the proposed names), then candidates by similarity.
    candidates.sort((x, y) => y.suggestedBy.length - x.suggestedBy.length || bySimilarity(x, y));
    rows.push({ fn, candidates, names: e!.names, best: Math.max(...candidates.map((c) => c.similarity ?? 0)) });
  }
  return rows;
}

export const rejectionKey = (queryId: number, c: Candidate) => `${queryId}:${c.key}`;
