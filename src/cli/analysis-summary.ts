// The human-readable summary `binlens analyze` prints: one `label  value` line per fact of the result,
// then where the time and memory went.
import type { AnalysisResult, BinaryIdentity, CapabilityReport } from '../contracts/index.js';
import type { StageTime } from './stage-clock.js';

export interface RunFacts {
  file: string;
  stages: readonly StageTime[];
  /** From the command's start to the result's arrival: includes starting the worker and loading the engine. */
  totalMs: number;
  peakRssBytes: number;
}

const FORMATS: Record<BinaryIdentity['format'], string> = { elf: 'ELF', pe: 'PE', macho: 'Mach-O', raw: 'raw blob' };

const count = (n: number) => n.toLocaleString('en-US');
const ms = (t: number) => (t < 10 ? t.toFixed(1) : count(Math.round(t)));
const hex = (n: number) => `0x${n.toString(16)}`;

function formatLine(id: BinaryIdentity): string {
  if (id.format === 'raw') return FORMATS.raw;
  return `${FORMATS[id.format]} ${id.binaryType.replace(/_/g, ' ')}, ${id.dynamic ? 'dynamically' : 'statically'} linked`;
}

function architectureLine(id: BinaryIdentity): string {
  const details = [id.bits && `${id.bits}-bit`, id.endianness && `${id.endianness}-endian`].filter(Boolean);
  return details.length ? `${id.architecture} (${details.join(', ')})` : id.architecture;
}

/** `nx, pie, relro full, no canary`: null means the feature does not apply to this format. */
function securityLine(r: AnalysisResult): string {
  // A blob's mitigations are unknown, not absent (its record says "not shown" for each).
  if (r.identity.format === 'raw') return 'unknown (raw blob)';
  const parts = Object.entries(r.security)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => (v === true ? k : v === false ? `no ${k}` : `${k} ${v}`));
  return parts.join(', ') || 'none reported';
}

/** `3 of 130 rules: create process, …` with the ATT&CK techniques they map to. */
function capabilitiesLine(c: CapabilityReport): string {
  if (c.matches.length === 0) return `none of ${count(c.rules)} rules matched`;
  const techniques = [...new Set(c.matches.flatMap((m) => m.attack.map((a) => /\[(T[\d.]+)\]/.exec(a)?.[1] ?? a)))];
  return (
    `${count(c.matches.length)} of ${count(c.rules)} rules: ${c.matches.map((m) => m.rule).join(', ')}` +
    (techniques.length ? ` (ATT&CK ${techniques.join(', ')})` : '')
  );
}

export function formatSummary(r: AnalysisResult, run: RunFacts): string {
  const named = r.functions.filter((f) => f.nameOrigin !== 'generated').length;
  const id = r.identity;
  const lines: [string, string][] = [
    ['file', run.file],
    ['size', `${count(r.size)} bytes`],
    ['sha256', r.hashes.sha256],
    ['format', formatLine(id)],
    ['architecture', architectureLine(id)],
    ['platform', id.platform],
  ];
  if (id.entryPoint !== null) lines.push(['entry point', hex(id.entryPoint)]);
  lines.push(['model', r.modelName ?? 'none for this architecture and platform']);
  if (id.format === 'raw' && id.architecture === 'unknown') {
    lines.push(['note', 'not ELF, PE or Mach-O: hashes only; --isa (and --base) disassemble it as a raw blob']);
  } else {
    lines.push(
      ['functions', `${count(r.functionCount)} (${count(named)} named, ${count(r.functionCount - named)} sub_)`],
      ['instructions', count(r.instructionCount)],
      ['strings', count(r.strings.length)],
      [
        'imports',
        `${count(r.imports.length)} from ${count(r.libraries.length)} ${r.libraries.length === 1 ? 'library' : 'libraries'}`,
      ],
      ['exports', count(r.exports.length)],
      ['security', securityLine(r)],
      ['stripped', r.stripped ? 'yes' : 'no'],
    );
  }
  if (r.capabilities) lines.push(['capabilities', capabilitiesLine(r.capabilities)]);
  if (r.sbom)
    lines.push([
      'libraries',
      r.sbom.map((l) => `${l.name} ${l.version ?? '(version unknown)'}`).join(', ') || 'none identified',
    ]);
  if (r.diagnostics.length) lines.push(['diagnostics', `${count(r.diagnostics.length)}, first: ${r.diagnostics[0]}`]);
  lines.push(
    ['stages', run.stages.map((s) => `${s.stage} ${ms(s.ms)} ms`).join(', ')],
    ['total', `${ms(run.totalMs)} ms, peak RSS ${count(Math.round(run.peakRssBytes / 2 ** 20))} MiB`],
  );
  const pad = Math.max(...lines.map(([label]) => label.length)) + 2;
  return lines.map(([label, value]) => label.padEnd(pad) + value).join('\n');
}
