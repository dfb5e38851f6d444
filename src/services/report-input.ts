// What the PDF report (and the overview of the JSON API) says about a binary, chosen for its format: the key
// facts and mitigations that apply (no ASLR row on an ELF, no RELRO row on a PE), the ATT&CK tactic strip and
// the capabilities with their weights. Pure: the service reads the store and the sample, this shapes what it read.
import type { ResultDocument } from '../contracts/index.js';
import {
  ATTACK_TACTICS,
  capabilityWeight,
  parseAttack,
  tacticOrder,
  type AttackMapping,
} from '../engine/capabilities/index.js';
import type { ReportInput, Row, Tone } from '../engine/report/index.js';

type Security = ResultDocument['security'];
type Format = ResultDocument['identity']['format'];

interface Mitigation {
  key: keyof Security & string;
  feature: string;
  meaning: string;
  formats: Format[];
  /** Tone of an absent mitigation: bad where its absence opens the door, warn where it is defence in depth. */
  absent: Tone;
}

/** In reading order. PE's nx and pie repeat dep and aslr (the same header bits), so PE shows those names. */
const MITIGATIONS: Mitigation[] = [
  { key: 'nx', feature: 'NX', meaning: 'stack and data cannot run as code', formats: ['elf', 'macho'], absent: 'bad' },
  {
    key: 'dep',
    feature: 'DEP',
    meaning: 'data pages cannot run as code (NX compatible)',
    formats: ['pe'],
    absent: 'bad',
  },
  { key: 'pie', feature: 'PIE', meaning: 'code loads at a random address', formats: ['elf', 'macho'], absent: 'bad' },
  { key: 'aslr', feature: 'ASLR', meaning: 'loads at a random address (dynamic base)', formats: ['pe'], absent: 'bad' },
  {
    key: 'highEntropyVa',
    feature: 'High-entropy ASLR',
    meaning: 'randomised across the 64-bit address space',
    formats: ['pe'],
    absent: 'warn',
  },
  {
    key: 'relro',
    feature: 'RELRO',
    meaning: 'relocations read-only after start-up (full: the GOT too)',
    formats: ['elf'],
    absent: 'bad',
  },
  {
    key: 'canary',
    feature: 'Stack canary',
    meaning: 'stack overflows caught before return',
    formats: ['elf', 'pe', 'macho'],
    absent: 'bad',
  },
  {
    key: 'fortify',
    feature: 'Fortify',
    meaning: 'bounds-checked __*_chk string and memory calls',
    formats: ['elf', 'pe', 'macho'],
    absent: 'warn',
  },
  {
    key: 'cfg',
    feature: 'Control Flow Guard',
    meaning: 'indirect calls checked against valid targets',
    formats: ['pe'],
    absent: 'warn',
  },
  {
    key: 'seh',
    feature: 'SEH',
    meaning: 'may register exception handlers (NO_SEH not set)',
    formats: ['pe'],
    absent: 'neutral',
  },
];

/** The mitigations the binary's format has, each with its state. */
export function mitigations(format: Format, security: Security): ReportInput['security'] {
  return MITIGATIONS.filter((m) => m.formats.includes(format) && security[m.key] != null).map((m) => {
    const v = security[m.key]!;
    if (typeof v === 'string') {
      const tone: Tone = v === 'full' ? 'good' : v === 'partial' ? 'warn' : m.absent;
      return { feature: m.feature, value: v[0]!.toUpperCase() + v.slice(1), tone, meaning: m.meaning };
    }
    const tone: Tone = m.absent === 'neutral' ? 'neutral' : v ? 'good' : m.absent;
    return { feature: m.feature, value: v ? 'Yes' : 'No', tone, meaning: m.meaning };
  });
}

const hex = (v: number) => `0x${v.toString(16)}`;
const count = (n: number) => n.toLocaleString('en-US');
const bytes = (n: number) => {
  const unit = n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} MiB` : `${(n / 1024).toFixed(1)} KiB`;
  return n >= 1024 ? `${count(n)} bytes (${unit})` : `${n} bytes`;
};
const PLATFORM: Record<string, string> = { linux: 'Linux', windows: 'Windows', android: 'Android', macos: 'macOS' };
const LANGUAGE: Record<string, string> = {
  c: 'C',
  'c++': 'C++',
  go: 'Go',
  rust: 'Rust',
  swift: 'Swift',
  objc: 'Objective-C',
  unknown: 'not recognised',
};
const FORMAT: Record<Format, string> = { elf: 'ELF', pe: 'PE', macho: 'Mach-O', raw: 'Raw code' };

/** "ELF 64-bit x86_64 executable for Linux". */
export function formatLine(r: ResultDocument): string {
  const id = r.identity;
  const bits = id.format === 'pe' && id.bits ? (id.bits === 64 ? 'PE32+' : 'PE32') : `${FORMAT[id.format]}`;
  const width = id.format !== 'pe' && id.bits ? ` ${id.bits}-bit` : '';
  const platform = PLATFORM[id.platform] ? ` for ${PLATFORM[id.platform]}` : '';
  return `${bits}${width} ${id.architecture} ${id.binaryType.replace(/_/g, ' ')}${platform}`;
}

/** Key facts, each only where the format has it. */
export function keyFacts(r: ResultDocument, named: number, model: string): Row[] {
  const id = r.identity;
  const rows: (Row | null)[] = [
    ['Format', formatLine(r)],
    id.subsystem ? ['Subsystem', id.subsystem] : null,
    ['Size', bytes(r.size)],
    ['Language', LANGUAGE[r.language] ?? r.language],
    ['Linking', id.dynamic ? `dynamic${r.libraries.length ? `: ${r.libraries.join(', ')}` : ''}` : 'static'],
    ['Functions', `${count(r.functionCount)} (${count(named)} named)`],
    id.format === 'raw' ? null : ['Symbols', r.stripped ? 'stripped' : 'present'],
    ['Debug info', debugInfo(r)],
    r.debugInfo.buildId ? ['Build ID', r.debugInfo.buildId] : null,
    id.entryPoint !== null ? ['Entry point', hex(id.entryPoint)] : null,
    id.format === 'pe' && id.baseAddress !== null ? ['Image base', hex(id.baseAddress)] : null,
    ['Imports / exports', `${count(r.imports.length)} / ${count(r.exports.length)}`],
    ['Model', model],
  ];
  return rows.filter((row): row is Row => row !== null);
}

function debugInfo(r: ResultDocument): string {
  if (r.debugInfo.dwarf) return 'DWARF';
  if (r.debugInfo.pdbPath) return `PDB ${r.debugInfo.pdbPath}`;
  return 'none';
}

/** Digests that identify the file, and the similarity hashes that find its relatives. */
export function hashRows(r: ResultDocument): Pick<ReportInput, 'hashes' | 'similarityHashes'> {
  return {
    hashes: [
      ['SHA-256', r.hashes.sha256],
      ['SHA-1', r.hashes.sha1],
      ['MD5', r.hashes.md5],
    ],
    similarityHashes: [
      ['TLSH', r.hashes.tlsh],
      ['ssdeep', r.hashes.ssdeep ?? 'not computed'],
      ['CRC-32', r.hashes.crc32],
    ],
  };
}

type Report = NonNullable<ResultDocument['capabilities']>;
type Match = Report['matches'][number];

/** A capability as the report and the overview show it: its match, weight and parsed ATT&CK mappings. */
export interface CapabilityRow<F> {
  name: string;
  /** Empty when the rule has none. */
  namespace: string;
  scope: Match['scope'];
  weight: number;
  attack: AttackMapping[];
  mbc: string[];
  functions: F[];
}

/** Capabilities with their weights and parsed ATT&CK mappings, strongest first; functions as `place` gives them. */
export function capabilityRows<F>(report: Report, place: (vaddr: number) => F): CapabilityRow<F>[] {
  return report.matches
    .map((m) => ({
      name: m.rule,
      namespace: m.namespace ?? '',
      scope: m.scope,
      weight: capabilityWeight(m.namespace, m.rule),
      attack: m.attack.map(parseAttack),
      mbc: m.mbc,
      functions: m.functions.map(place),
    }))
    .sort((a, b) => b.weight - a.weight || a.name.localeCompare(b.name));
}

/** Every Enterprise tactic in kill-chain order (then any other the rules name), with its capabilities. */
export function tacticStrip<C extends Pick<CapabilityRow<unknown>, 'attack' | 'weight'>>(
  capabilities: C[],
): NonNullable<ReportInput['tactics']> {
  const tactics = new Map<string, { tactic: string; capabilities: number; weight: number }>(
    ATTACK_TACTICS.map((t) => [t, { tactic: t, capabilities: 0, weight: 0 }]),
  );
  for (const c of capabilities)
    for (const tactic of new Set(c.attack.map((a) => a.tactic))) {
      const t = tactics.get(tactic) ?? tactics.set(tactic, { tactic, capabilities: 0, weight: 0 }).get(tactic)!;
      t.capabilities++;
      t.weight = Math.max(t.weight, c.weight);
    }
  return [...tactics.values()].sort((a, b) => tacticOrder(a.tactic) - tacticOrder(b.tactic));
}
