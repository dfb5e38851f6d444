// Test support for src/engine/disasm: the shared corpus, ELF section headers (kept here so these tests do
// not depend on the format parsers), and GNU objdump when one that knows the architecture is
// installed (binutils-multiarch).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Tests run from the project root (compiled, under dist/); the corpus sits beside the project. */
export const CORPUS = path.resolve(process.cwd(), '..', 'shared', 'corpus');

export interface CorpusEntry {
  path: string;
  size: number;
  format: string;
  arch: string;
  stripped: boolean;
}

export function corpusEntries(): CorpusEntry[] {
  const file = path.join(CORPUS, 'manifest.json');
  if (!existsSync(file)) return [];
  return (JSON.parse(readFileSync(file, 'utf8')) as { binaries: CorpusEntry[] }).binaries;
}

/** The largest binary of the corpus for a manifest architecture and format, or undefined. */
export function largest(arch: string, format = 'ELF', stripped?: boolean): CorpusEntry | undefined {
  return corpusEntries()
    .filter((e) => e.arch === arch && e.format === format && (stripped === undefined || e.stripped === stripped))
    .sort((a, b) => b.size - a.size)[0];
}

export const readCorpus = (entry: CorpusEntry): Uint8Array =>
  new Uint8Array(readFileSync(path.join(CORPUS, entry.path)));

export interface Section {
  name: string;
  vaddr: number;
  offset: number;
  size: number;
  exec: boolean;
}

const SHF_EXECINSTR = 4;
const SHT_NOBITS = 8;

/** ELF section headers (32/64-bit, either byte order); throws on files that are not ELF. */
export function elfSections(bytes: Uint8Array): Section[] {
  if (bytes[0] !== 0x7f || bytes[1] !== 0x45 || bytes[2] !== 0x4c || bytes[3] !== 0x46) throw new Error('not ELF');
  const is64 = bytes[4] === 2;
  const little = bytes[5] === 1;
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (o: number) => v.getUint16(o, little);
  const u32 = (o: number) => v.getUint32(o, little);
  const word = (o: number) => (is64 ? Number(v.getBigUint64(o, little)) : u32(o));
  const shoff = word(is64 ? 0x28 : 0x20);
  const shentsize = u16(is64 ? 0x3a : 0x2e);
  const shnum = u16(is64 ? 0x3c : 0x30);
  const shstrndx = u16(is64 ? 0x3e : 0x32);
  const header = (i: number) => {
    const at = shoff + i * shentsize;
    return {
      name: u32(at),
      type: u32(at + 4),
      flags: word(at + 8),
      vaddr: word(is64 ? at + 0x10 : at + 0x0c),
      offset: word(is64 ? at + 0x18 : at + 0x10),
      size: word(is64 ? at + 0x20 : at + 0x14),
    };
  };
  const strtab = header(shstrndx).offset;
  const nameAt = (o: number) => {
    let end = strtab + o;
    while (bytes[end] !== 0) end++;
    return Buffer.from(bytes.subarray(strtab + o, end)).toString('latin1');
  };
  const out: Section[] = [];
  for (let i = 1; i < shnum; i++) {
    const h = header(i);
    if (h.type === SHT_NOBITS) continue;
    out.push({
      name: nameAt(h.name),
      vaddr: h.vaddr,
      offset: h.offset,
      size: h.size,
      exec: (h.flags & SHF_EXECINSTR) !== 0,
    });
  }
  return out;
}

/** The `.text` section's bytes and address. */
export function textSection(bytes: Uint8Array): { bytes: Uint8Array; vaddr: number } {
  const s = elfSections(bytes).find((x) => x.name === '.text');
  if (!s) throw new Error('no .text');
  return { bytes: bytes.subarray(s.offset, s.offset + s.size), vaddr: s.vaddr };
}

/** GNU objdump if it disassembles `arch` (a BFD architecture name such as `mips`, `arm`, `aarch64`). */
export function objdumpFor(arch: string): string | null {
  for (const cmd of ['objdump', 'mips-linux-gnu-objdump', 'aarch64-linux-gnu-objdump', 'arm-linux-gnueabihf-objdump']) {
    const r = spawnSync(cmd, ['-i'], { encoding: 'utf8' });
    if (r.status === 0 && r.stdout.split('\n').some((l) => l.trim() === arch)) return cmd;
  }
  return null;
}

export interface ObjdumpLine {
  vaddr: number;
  /** The instruction's bytes as objdump groups them (`e92d 41f0` Thumb, `eb0000ed` ARM), if asked for. */
  raw: string;
  mnemonic: string;
  /** Operands with `<symbol>` annotations removed. */
  operands: string;
  /** objdump's comment after the operands (`@ (3c64 <main+0xe4>)`, `// b.any`), or ''. */
  comment: string;
}

const X86_PREFIXES = new Set([
  'rep',
  'repz',
  'repnz',
  'repe',
  'repne',
  'lock',
  'notrack',
  'bnd',
  'data16',
  'addr32',
  'cs',
  'ds',
]);

/** `objdump -d` of one section, parsed into instruction lines. */
export function objdumpSection(
  cmd: string,
  file: string,
  section: string,
  extra: string[] = [],
  raw = false,
): ObjdumpLine[] {
  const flags = raw ? ['-d', '-w', '-z'] : ['-d', '-w', '-z', '--no-show-raw-insn'];
  const r = spawnSync(cmd, [...flags, `--section=${section}`, ...extra, file], {
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
  const out: ObjdumpLine[] = [];
  for (const line of r.stdout.split('\n')) {
    const m = /^\s*([0-9a-f]+):\t(.*)$/.exec(line);
    if (!m) continue;
    let mnemonic: string;
    let operands: string;
    let comment: string;
    const fields = m[2]!.split('\t');
    const rawBytes = raw ? fields.shift()!.trim() : '';
    if (fields.length > 1) {
      // RISC targets: mnemonic<TAB>operands[<TAB>comment]
      [mnemonic, operands, comment] = [fields[0]!, fields[1] ?? '', fields.slice(2).join(' ')];
    } else {
      // x86: mnemonic and operands padded with spaces, `# address <symbol>` comments, prefixes first
      const insn = fields[0] ?? '';
      const hash = insn.indexOf(' #');
      comment = hash >= 0 ? insn.slice(hash + 1) : '';
      const words = (hash >= 0 ? insn.slice(0, hash) : insn).trim().split(/\s+/);
      while (words.length > 1 && X86_PREFIXES.has(words[0]!)) words.shift();
      mnemonic = words.shift() ?? '';
      operands = words.join(' ');
    }
    out.push({
      vaddr: parseInt(m[1]!, 16),
      raw: rawBytes,
      mnemonic: mnemonic.trim(),
      operands: operands.replace(/\s*<[^>]*>/g, '').trim(),
      comment: comment.trim(),
    });
  }
  return out;
}

/** Little-endian bytes of 32-bit words. */
export const le32 = (...words: number[]): Uint8Array => {
  const out = new Uint8Array(words.length * 4);
  const v = new DataView(out.buffer);
  words.forEach((w, i) => v.setUint32(i * 4, w >>> 0, true));
  return out;
};

/** Big-endian bytes of 32-bit words. */
export const be32 = (...words: number[]): Uint8Array => {
  const out = new Uint8Array(words.length * 4);
  const v = new DataView(out.buffer);
  words.forEach((w, i) => v.setUint32(i * 4, w >>> 0, false));
  return out;
};

/** Little-endian bytes of Thumb halfwords (a 32-bit instruction is written as its two halfwords). */
export const le16 = (...halfwords: number[]): Uint8Array => {
  const out = new Uint8Array(halfwords.length * 2);
  const v = new DataView(out.buffer);
  halfwords.forEach((h, i) => v.setUint16(i * 2, h, true));
  return out;
};

export const hexBytes = (hex: string): Uint8Array => new Uint8Array(Buffer.from(hex.replace(/\s+/g, ''), 'hex'));

export const FLOW_NAMES = [
  'Sequential',
  'Jump',
  'Branch',
  'Call',
  'Return',
  'IndirectJump',
  'IndirectCall',
  'Halt',
  'Invalid',
];

/** The fields of `expected` that differ in `actual`, as "field: actual ≠ expected" lines ('' when equal). */
export function differences(actual: object, expected: object): string {
  const a = actual as Record<string, unknown>;
  return Object.entries(expected)
    .filter(([k, v]) => a[k] !== v)
    .map(([k, v]) => {
      const show = (x: unknown) =>
        k === 'flow' ? FLOW_NAMES[x as number] : typeof x === 'number' && x > 9 ? `0x${x.toString(16)}` : String(x);
      return `${k}: ${show(a[k])} ≠ ${show(v)}`;
    })
    .join(', ');
}
