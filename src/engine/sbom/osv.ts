// OSV records (https://ossf.github.io/osv-schema/) → which identified libraries they affect. Records come
// from files an administrator imports; nothing is fetched. Ranges of type SEMVER and ECOSYSTEM are
// evaluated with compareVersions; GIT ranges name commits, which a binary does not reveal, and are skipped.
import { cvss3BaseScore, severityOf, type Severity } from './cvss.js';
import type { LibraryComponent } from './identify-libraries.js';
import { compareVersions } from './version-compare.js';

export interface OsvEvent {
  introduced?: string;
  fixed?: string;
  last_affected?: string;
  limit?: string;
}
export interface OsvAffected {
  package?: { name?: string; ecosystem?: string; purl?: string };
  ranges?: { type: string; events: OsvEvent[] }[];
  versions?: string[];
}
export interface OsvRecord {
  id: string;
  aliases?: string[];
  summary?: string;
  details?: string;
  severity?: { type: string; score: string }[];
  affected?: OsvAffected[];
  database_specific?: { severity?: string };
  withdrawn?: string;
}

export class OsvError extends Error {}

const MAX_AFFECTED = 1000;
const MAX_EVENTS = 1000;

const isString = (v: unknown): v is string => typeof v === 'string';

/** Checks the parts Binlens reads; throws OsvError naming the first problem. */
export function parseOsvRecord(doc: unknown): OsvRecord {
  const r = doc as OsvRecord;
  if (!r || typeof r !== 'object' || !isString(r.id) || r.id === '') throw new OsvError('no `id`');
  if (r.affected !== undefined && (!Array.isArray(r.affected) || r.affected.length > MAX_AFFECTED))
    throw new OsvError(`${r.id}: \`affected\` is not a list of at most ${MAX_AFFECTED}`);
  for (const a of r.affected ?? []) {
    if (!a || typeof a !== 'object') throw new OsvError(`${r.id}: an \`affected\` entry is not an object`);
    if (a.versions !== undefined && !(Array.isArray(a.versions) && a.versions.every(isString)))
      throw new OsvError(`${r.id}: \`versions\` is not a list of strings`);
    for (const range of a.ranges ?? []) {
      if (!isString(range?.type) || !Array.isArray(range.events) || range.events.length > MAX_EVENTS)
        throw new OsvError(`${r.id}: a range has no type or events`);
    }
  }
  if (r.aliases !== undefined && !(Array.isArray(r.aliases) && r.aliases.every(isString)))
    throw new OsvError(`${r.id}: \`aliases\` is not a list of strings`);
  return r;
}

/** Lower-case package names, and the name part of a purl (`pkg:generic/zlib@1.2` → `zlib`). */
function packageNames(a: OsvAffected): string[] {
  const names: string[] = [];
  if (isString(a.package?.name)) names.push(a.package.name.toLowerCase().split('/').pop()!);
  const purl = a.package?.purl;
  if (isString(purl)) names.push(purl.replace(/@.*$/, '').split('/').pop()!.toLowerCase());
  return names;
}

/** Every package name a record affects: what the local database indexes it by. */
export const affectedPackageNames = (record: OsvRecord): string[] => [
  ...new Set((record.affected ?? []).flatMap(packageNames)),
];

function inRange(version: string, events: OsvEvent[]): boolean {
  // Events ordered by version: an `introduced` opens, a `fixed`/`limit` closes before, `last_affected` after.
  let affected = false;
  const sorted = [...events].sort((x, y) => compareVersions(eventVersion(x), eventVersion(y)));
  for (const e of sorted) {
    if (e.introduced !== undefined && (e.introduced === '0' || compareVersions(version, e.introduced) >= 0))
      affected = true;
    if (e.fixed !== undefined && compareVersions(version, e.fixed) >= 0) affected = false;
    if (e.limit !== undefined && compareVersions(version, e.limit) >= 0) affected = false;
    if (e.last_affected !== undefined && compareVersions(version, e.last_affected) > 0) affected = false;
  }
  return affected;
}

const eventVersion = (e: OsvEvent): string => e.introduced ?? e.fixed ?? e.last_affected ?? e.limit ?? '0';

export function affects(record: OsvRecord, c: Pick<LibraryComponent, 'name' | 'version'>): boolean {
  if (record.withdrawn || c.version === null) return false;
  const version = c.version;
  return (record.affected ?? []).some((a) => {
    if (!packageNames(a).includes(c.name.toLowerCase())) return false;
    if (a.versions?.includes(version)) return true;
    return (a.ranges ?? []).some((r) => (r.type === 'SEMVER' || r.type === 'ECOSYSTEM') && inRange(version, r.events));
  });
}

/** The reference's Vulnerability, for one record affecting one component. */
export interface VulnerabilityReport {
  vendor: string;
  product: string;
  version: string;
  cve_number: string;
  severity: Severity;
  source: string;
  cvss_version: string;
  cvss_vector: string;
  remarks: string;
  score: number;
  is_unknown: boolean;
}

const SEVERITIES = new Set(['CRITICAL', 'HIGH', 'MEDIUM', 'LOW']);

export function vulnerabilityReport(record: OsvRecord, c: LibraryComponent): VulnerabilityReport {
  const vector = record.severity?.find((s) => /^CVSS_V3/.test(s.type))?.score ?? '';
  const cvss = vector ? cvss3BaseScore(vector) : null;
  const stated = record.database_specific?.severity?.toUpperCase();
  const severity = stated && SEVERITIES.has(stated) ? (stated as Severity) : severityOf(cvss?.score ?? null);
  return {
    vendor: c.vendor,
    product: c.product,
    version: c.version ?? '',
    cve_number: record.aliases?.find((a) => a.startsWith('CVE-')) ?? record.id,
    severity,
    source: `OSV ${record.id}`,
    cvss_version: cvss?.version ?? '',
    cvss_vector: vector,
    remarks: record.summary ?? record.details?.slice(0, 500) ?? '',
    score: cvss?.score ?? 0,
    is_unknown: cvss === null,
  };
}

/** Every (record, component) pair where the record affects the component, most severe first. */
export function matchVulnerabilities(records: OsvRecord[], components: LibraryComponent[]): VulnerabilityReport[] {
  const out: VulnerabilityReport[] = [];
  for (const c of components) for (const r of records) if (affects(r, c)) out.push(vulnerabilityReport(r, c));
  return out.sort((a, b) => b.score - a.score || a.cve_number.localeCompare(b.cve_number));
}
