// One score and verdict for a whole file, from its capability matches (docs/tags.md, "The verdict").
// A line of evidence is an ATT&CK tactic (the capabilities without one are one more line); each counts once,
// at its strongest capability's weight, and the lines combine as independent evidence: 1 − Π(1 − w).
// Nine networking rules are one line (Command and Control), not nine, so ordinary programs do not saturate.
import type { CapabilityReport } from '../../contracts/understanding.js';
import { tacticOrder, tacticsOf } from './attack.js';
import { capabilityWeight, combineScores } from './tags.js';

/** The line of evidence of capabilities whose rules map to no ATT&CK tactic. */
export const NO_TACTIC = 'No ATT&CK tactic';

export type VerdictLevel = 'malicious' | 'suspicious' | 'low' | 'none';

/** Lowest score of each level, highest first; any score above 0 is at least `low`. */
export const VERDICT_THRESHOLDS: { level: VerdictLevel; from: number; label: string }[] = [
  { level: 'malicious', from: 0.8, label: 'Likely malicious' },
  { level: 'suspicious', from: 0.6, label: 'Suspicious' },
  { level: 'low', from: Number.MIN_VALUE, label: 'Low concern' },
];
const NONE_LABEL = 'No capability found';

export interface VerdictEvidence {
  /** An ATT&CK tactic, or NO_TACTIC. */
  group: string;
  /** The strongest capability of the group. */
  rule: string;
  weight: number;
}

export interface Verdict {
  /** 0..1, three decimals. */
  score: number;
  level: VerdictLevel;
  label: string;
  /** One per line of evidence, strongest first. */
  evidence: VerdictEvidence[];
}

export function analysisVerdict(report: CapabilityReport): Verdict {
  const strongest = new Map<string, VerdictEvidence>();
  for (const m of report.matches) {
    const weight = capabilityWeight(m.namespace, m.rule);
    const groups = tacticsOf(m.attack);
    for (const group of groups.length ? groups : [NO_TACTIC]) {
      const seen = strongest.get(group);
      if (!seen || weight > seen.weight || (weight === seen.weight && m.rule < seen.rule))
        strongest.set(group, { group, rule: m.rule, weight });
    }
  }
  const evidence = [...strongest.values()].sort(
    (a, b) => b.weight - a.weight || tacticOrder(a.group) - tacticOrder(b.group) || a.group.localeCompare(b.group),
  );
  const score = Math.round(combineScores(evidence.map((e) => e.weight)) * 1000) / 1000;
  const band = VERDICT_THRESHOLDS.find((t) => score >= t.from);
  return { score, level: band?.level ?? 'none', label: band?.label ?? NONE_LABEL, evidence };
}
