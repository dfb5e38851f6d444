// Strings and needed libraries → the libraries a binary carries, with versions where its bytes say them.
import type { LibraryRecord } from '../../contracts/understanding.js';
import { CHECKERS, type Checker } from './checkers.js';

export interface StringAt {
  value: string;
  vaddr: number;
}

export type LibraryComponent = LibraryRecord;

const EVIDENCE_SHOWN = 3;

function nearest(candidates: StringAt[], anchors: number[], near: number | undefined): StringAt | null {
  let best: StringAt | null = null;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = anchors.reduce((m, a) => Math.min(m, Math.abs(a - c.vaddr)), Infinity);
    if (near !== undefined && d > near) continue;
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

function versionOf(checker: Checker, strings: StringAt[], evidence: StringAt[]): string | null {
  const anchors = evidence.map((e) => e.vaddr);
  for (const pattern of checker.versions) {
    const hits = strings.filter((s) => pattern.test(s.value));
    const pick =
      checker.near === undefined
        ? (nearest(hits, anchors, undefined) ?? hits[0])
        : nearest(hits, anchors, checker.near);
    const m = pick ? pattern.exec(pick.value) : null;
    if (m?.[1]) return m[1];
  }
  return null;
}

function component(checker: Checker, version: string | null, linkage: LibraryComponent['linkage'], evidence: string[]) {
  return {
    name: checker.name,
    version,
    vendor: checker.vendor,
    product: checker.product,
    purl: version ? `${checker.purl}@${encodeURIComponent(version)}` : checker.purl,
    cpe: `cpe:2.3:a:${checker.vendor}:${checker.product}:${version ?? '*'}:*:*:*:*:*:*:*`,
    linkage,
    evidence: evidence.slice(0, EVIDENCE_SHOWN),
  };
}

/** Libraries in the binary (by their strings) or needed by it (by name), in checker order. */
export function identifyLibraries(strings: StringAt[], neededLibraries: string[]): LibraryComponent[] {
  const out: LibraryComponent[] = [];
  for (const checker of CHECKERS) {
    const evidence = strings.filter((s) => checker.evidence.some((re) => re.test(s.value)));
    if (evidence.length > 0) {
      const values = [...new Set(evidence.map((e) => e.value))];
      out.push(component(checker, versionOf(checker, strings, evidence), 'static', values));
      continue;
    }
    const needed = neededLibraries.filter((l) => checker.libraries?.some((re) => re.test(l)));
    if (needed.length > 0) out.push(component(checker, null, 'dynamic', needed));
  }
  return out;
}
