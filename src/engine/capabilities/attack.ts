// ATT&CK mappings as capability rules write them (`Tactic::Technique::Sub-technique [T1234.001]`), and the
// Enterprise tactics in kill-chain order, so a report can lay capabilities out along an attack's course.

export const ATTACK_TACTICS = [
  'Reconnaissance',
  'Resource Development',
  'Initial Access',
  'Execution',
  'Persistence',
  'Privilege Escalation',
  'Defense Evasion',
  'Credential Access',
  'Discovery',
  'Lateral Movement',
  'Collection',
  'Command and Control',
  'Exfiltration',
  'Impact',
] as const;

export interface AttackMapping {
  tactic: string;
  /** Technique and sub-technique names, joined by `: `. */
  technique: string;
  /** T1055, T1547.001 …; null when the rule gives none. */
  id: string | null;
}

export function parseAttack(entry: string): AttackMapping {
  const id = /\[(T\d{4}(?:\.\d{3})?)\]\s*$/.exec(entry);
  const path = (id ? entry.slice(0, id.index) : entry)
    .split('::')
    .map((s) => s.trim())
    .filter(Boolean);
  return { tactic: path[0] ?? entry.trim(), technique: path.slice(1).join(': '), id: id?.[1] ?? null };
}

/** The distinct tactics of a capability's mappings, in the order the rule gives them. */
export const tacticsOf = (attack: string[]): string[] => [...new Set(attack.map((a) => parseAttack(a).tactic))];

/** Kill-chain position of a tactic; tactics outside the Enterprise list sort after it. */
export const tacticOrder = (tactic: string): number => {
  const i = (ATTACK_TACTICS as readonly string[]).indexOf(tactic);
  return i < 0 ? ATTACK_TACTICS.length : i;
};
