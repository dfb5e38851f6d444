// CVSS v3.0/v3.1 base score from a vector (`CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H` → 9.8), by the
// specification's formulas, so OSV records that carry only a vector still get a score and a severity.

const WEIGHTS: Record<string, Record<string, number>> = {
  AV: { N: 0.85, A: 0.62, L: 0.55, P: 0.2 },
  AC: { L: 0.77, H: 0.44 },
  UI: { N: 0.85, R: 0.62 },
  C: { H: 0.56, L: 0.22, N: 0 },
  I: { H: 0.56, L: 0.22, N: 0 },
  A: { H: 0.56, L: 0.22, N: 0 },
};
const PRIVILEGES: Record<string, { U: number; C: number }> = {
  N: { U: 0.85, C: 0.85 },
  L: { U: 0.62, C: 0.68 },
  H: { U: 0.27, C: 0.5 },
};

/** The specification's Roundup: the smallest one-decimal number ≥ x, robust to floating-point noise. */
function roundUp(x: number): number {
  const i = Math.round(x * 100000);
  return i % 10000 === 0 ? i / 100000 : (Math.floor(i / 10000) + 1) / 10;
}

export interface CvssScore {
  version: string;
  score: number;
}

/** null when the vector is not a complete CVSS 3.x base vector. */
export function cvss3BaseScore(vector: string): CvssScore | null {
  const m = /^CVSS:(3\.[01])\/(.*)$/.exec(vector.trim());
  if (!m) return null;
  const metrics = new Map(m[2]!.split('/').map((kv) => kv.split(':') as [string, string]));
  const get = (k: string) => metrics.get(k);
  const scope = get('S');
  const pr = PRIVILEGES[get('PR') ?? ''];
  if ((scope !== 'U' && scope !== 'C') || !pr) return null;
  const w: Record<string, number> = {};
  for (const k of Object.keys(WEIGHTS)) {
    const v = WEIGHTS[k]![get(k) ?? ''];
    if (v === undefined) return null;
    w[k] = v;
  }
  const iss = 1 - (1 - w.C!) * (1 - w.I!) * (1 - w.A!);
  const impact = scope === 'U' ? 6.42 * iss : 7.52 * (iss - 0.029) - 3.25 * (iss - 0.02) ** 15;
  const exploitability = 8.22 * w.AV! * w.AC! * pr[scope] * w.UI!;
  if (impact <= 0) return { version: m[1]!, score: 0 };
  const raw = scope === 'U' ? Math.min(impact + exploitability, 10) : Math.min(1.08 * (impact + exploitability), 10);
  return { version: m[1]!, score: roundUp(raw) };
}

export type Severity = 'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW' | 'UNKNOWN';

/** The specification's qualitative rating (0.0 is None, reported as LOW here: the wire has no NONE). */
export function severityOf(score: number | null): Severity {
  if (score === null) return 'UNKNOWN';
  if (score >= 9) return 'CRITICAL';
  if (score >= 7) return 'HIGH';
  if (score >= 4) return 'MEDIUM';
  return 'LOW';
}
