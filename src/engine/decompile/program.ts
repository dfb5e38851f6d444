// What a decompiled function may refer to outside itself, and how the output spells it: the other functions
// of the binary (by symbol, else sub_<address>), library functions through their PLT stubs and import slots,
// and the image's data, copied into arrays the output defines (pointers in it patched on first use, so a
// table of string pointers points at the copies). Functions the output must define are queued here.
import type { FunctionGraph } from '../cfg/index.js';
import { importsByAddress, fileOffsetOf, type BinaryImage, type SectionInfo } from '../formats/image.js';
import type { KnownPrototype, PrototypeDatabase } from '../types/prototypes/index.js';
import type { RecoveredSignature } from '../types/index.js';
import { Runtime } from './runtime.js';
import { Typings } from './typing.js';

/**
 * Something outside a function that its C refers to, as the output spells it: a function of the binary, a
 * library function (external), a data copy (global, at its section's address), or a string literal (`name` is
 * what C writes between the quotes). Placeholders (placeholders.ts) are made from these.
 */
export interface DecompiledSymbol {
  name: string;
  kind: 'function' | 'external' | 'global' | 'string';
  address: number;
}

export interface DataCopy {
  name: string;
  section: SectionInfo;
}

/** Longest string written as a literal. */
const MAX_LITERAL = 4096;
const ESCAPES: Record<number, string> = { 0x09: '\\t', 0x0a: '\\n', 0x0d: '\\r', 0x22: '\\"', 0x5c: '\\\\' };

/** Objects the standard headers declare that a binary's symbol table also lists (copy relocations). */
const LIBC_OBJECTS = new Set([
  'stdin',
  'stdout',
  'stderr',
  'errno',
  'environ',
  'optarg',
  'optind',
  'opterr',
  'optopt',
  'signgam',
  'timezone',
  'daylight',
  'tzname',
]);

/** Data sections copied at most, in bytes (a table-driven program's .rodata is far smaller). */
const MAX_DATA = 16 << 20;

export class Program {
  readonly runtime = new Runtime();
  /** The functions' data types as the output writes them, and the structures they define. */
  readonly typings: Typings;
  readonly imports: Map<number, string>;
  private readonly starts: Map<number, number>;
  private readonly names = new Map<number, string>();
  private readonly chosen = new Map<number, string>();
  private readonly used = new Set<string>();
  private readonly copies = new Map<SectionInfo, DataCopy>();
  /** Globals the code refers to, by address: the name it uses and where in which copy it points. */
  private readonly globals = new Map<number, { name: string; copy: DataCopy; offset: number }>();
  /** Data symbols of the image, by address. */
  private readonly objects = new Map<number, string>();
  /** Function indices the output defines, in the order they were first needed. */
  readonly queue: number[] = [];
  private readonly queued = new Set<number>();
  /** Library functions called, for the headers. */
  readonly libraryCalls = new Set<string>();
  /** What the function being translated refers to, by kind and name; null between functions. */
  private referred: Map<string, DecompiledSymbol> | null = null;

  constructor(
    readonly image: BinaryImage,
    readonly graph: FunctionGraph,
    readonly signatures: (RecoveredSignature | null)[],
    readonly library: PrototypeDatabase,
    given?: readonly string[],
  ) {
    this.imports = importsByAddress(image);
    this.starts = new Map(graph.functions.map((f, i) => [f.start, i]));
    for (const s of image.symbols) {
      if (s.kind === 'function' && this.starts.has(s.vaddr)) this.names.set(s.vaddr, s.name);
      if (s.kind === 'object' && !this.objects.has(s.vaddr)) this.objects.set(s.vaddr, s.name);
    }
    given?.forEach((name, fi) => this.names.set(graph.functions[fi]!.start, name));
    const symbols = new Set([...this.names.values(), ...this.objects.values()]);
    // A parameter or local may not hide a function or object the unit (or a library) names.
    const taken = (name: string) =>
      symbols.has(name) || /^(sub|g)_[0-9a-f]+$/.test(name) || LIBC_OBJECTS.has(name) || library.find(name) !== null;
    this.typings = new Typings(library.dataModel, image.identity.bits === 64 ? 8 : 4, taken);
  }

  /** The function starting at `address`, or -1. */
  functionAt(address: number): number {
    return this.starts.get(address) ?? -1;
  }

  /** A function's name in the output: a C identifier, unique (a second static `f` becomes `f_<address>`). */
  nameOf(fi: number): string {
    let name = this.chosen.get(fi);
    if (name !== undefined) return name;
    const start = this.graph.functions[fi]!.start;
    const sym = this.names.get(start);
    name = sym && /^[A-Za-z_][A-Za-z0-9_]*$/.test(sym) ? sym : `sub_${start.toString(16)}`;
    if (this.used.has(name)) name = `${name}_${start.toString(16)}`;
    this.used.add(name);
    this.chosen.set(fi, name);
    return name;
  }

  /** Queues function `fi` for definition and returns its name. */
  need(fi: number): string {
    if (!this.queued.has(fi)) {
      this.queued.add(fi);
      this.queue.push(fi);
    }
    const name = this.nameOf(fi);
    this.refer({ name, kind: 'function', address: this.graph.functions[fi]!.start });
    return name;
  }

  /** Runs `translate` (one function's translation) and returns what it gave with the symbols it referred to. */
  referencesOf<T>(translate: () => T): { value: T; symbols: DecompiledSymbol[] } {
    const referred = new Map<string, DecompiledSymbol>();
    this.referred = referred;
    try {
      return { value: translate(), symbols: [...referred.values()] };
    } finally {
      this.referred = null;
    }
  }

  /** Records that the function being translated refers to `s` (the first address of a name stays). */
  refer(s: DecompiledSymbol): void {
    const key = `${s.kind}:${s.name}`;
    if (this.referred && !this.referred.has(key)) this.referred.set(key, s);
  }

  /** The library function a call to `address` (a PLT stub, thunk or import slot) reaches, if known. */
  libraryAt(address: number): { name: string; known: KnownPrototype | null } | null {
    const name = this.imports.get(address);
    if (name === undefined) return null;
    this.refer({ name, kind: 'external', address });
    return { name, known: this.library.find(name) };
  }

  /** The loaded section holding `address`. */
  sectionAt(address: number): SectionInfo | null {
    for (const s of this.image.sections)
      if ((s.read || s.write || s.exec) && address >= s.vaddr && address < s.vaddr + Math.max(s.size, 1)) return s;
    return null;
  }

  /**
   * `address` as a C expression of type uint64_t pointing where the program's own copy of it is: a
   * function's address, or into the copy of its data section (by the global's name unless `named` is
   * false); null when it is in neither.
   */
  reference(address: number, named = true): string | null {
    const fi = this.functionAt(address);
    if (fi >= 0) return `(uint64_t)(uintptr_t)&${this.need(fi)}`;
    const s = this.sectionAt(address);
    if (!s || s.exec || s.size > MAX_DATA) return null;
    const copy = this.copyOf(s);
    if (!named) return `(uint64_t)(uintptr_t)(${copy.name} + ${address - s.vaddr})`;
    return `(uint64_t)(uintptr_t)${this.globalAt(address, copy)}`;
  }

  /**
   * The name the code reads a global by: its symbol where the image has one that cannot meet a library's
   * name, else g_<address>; a pointer into the section's copy (dataText() defines it).
   */
  private globalAt(address: number, copy: DataCopy): string {
    let g = this.globals.get(address);
    if (!g) {
      const sym = this.objects.get(address);
      let name =
        sym &&
        /^[A-Za-z_][A-Za-z0-9_]*$/.test(sym) &&
        !sym.startsWith('bl_') &&
        !this.library.find(sym) &&
        !LIBC_OBJECTS.has(sym)
          ? sym
          : `g_${address.toString(16)}`;
      if (this.used.has(name)) name = `g_${address.toString(16)}`;
      this.used.add(name);
      this.globals.set(address, (g = { name, copy, offset: address - copy.section.vaddr }));
    }
    this.refer({ name: g.name, kind: 'global', address });
    return g.name;
  }

  /** The NUL-terminated string of printable text starting at `address` in read-only data, if there is one. */
  stringAt(address: number): string | null {
    const s = this.sectionAt(address);
    if (!s || s.write || s.exec) return null;
    const off = fileOffsetOf(this.image, address);
    const end = fileOffsetOf(this.image, s.vaddr) + Math.min(s.fileSize, s.size);
    if (off < 0 || end <= off) return null;
    const bytes = this.image.bytes;
    for (let i = off; i < Math.min(end, off + MAX_LITERAL); i++) {
      const c = bytes[i]!;
      if (c === 0) return i > off ? String.fromCharCode(...bytes.subarray(off, i)) : null;
      if (!ESCAPES[c] && (c < 0x20 || c >= 0x7f)) return null;
    }
    return null;
  }

  /** stringAt(address) as a C string literal (of type uint64_t, like reference()); null when there is none. */
  stringLiteral(address: number): string | null {
    const raw = this.stringAt(address);
    if (raw === null) return null;
    // "??" would start a trigraph in ISO C.
    const text = [...raw]
      .map((ch, i) => (ch === '?' && raw[i - 1] === '?' ? '\\?' : (ESCAPES[ch.charCodeAt(0)] ?? ch)))
      .join('');
    this.refer({ name: text, kind: 'string', address });
    return `(uint64_t)(uintptr_t)"${text}"`;
  }

  private copyOf(s: SectionInfo): DataCopy {
    let c = this.copies.get(s);
    if (!c) {
      const base = `bl_${s.name.replace(/[^A-Za-z0-9_]/g, '_').replace(/^_+/, '')}`;
      const taken = new Set([...this.copies.values()].map((x) => x.name));
      let name = base;
      for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
      this.copies.set(s, (c = { name, section: s }));
    }
    return c;
  }

  /** Names of the data copies and globals made so far. */
  dataNames(): Set<string> {
    return new Set([...[...this.copies.values()].map((c) => c.name), ...[...this.globals.values()].map((g) => g.name)]);
  }

  /** Runtime address deltas of the copies: a code address computed from a copy's base is off by one of them. */
  copyDeltas(): string[] {
    return [...this.copies.values()].map((c) => `((uint64_t)(uintptr_t)${c.name} - ${c.section.vaddr}ull)`);
  }

  /** Definitions of the data copies and of `bl_init`, which patches the pointers the image's relocations fill. */
  dataText(): string {
    const out: string[] = [];
    const patches: string[] = [];
    const word = this.image.identity.bits === 64 ? 8 : 4;
    // Copies can be added while patches are written (a pointer into another section): loop until none is.
    for (let done = 0; done < this.copies.size;) {
      const list = [...this.copies.values()];
      for (const c of list.slice(done)) {
        const { section: s } = c;
        const bytes = new Uint8Array(Math.max(1, s.size));
        const off = fileOffsetOf(this.image, s.vaddr);
        if (off >= 0 && s.fileSize > 0) bytes.set(this.image.bytes.subarray(off, off + Math.min(s.fileSize, s.size)));
        out.push(`static _Alignas(16) uint8_t ${c.name}[${bytes.length}] = {${[...bytes].join(',')}};`);
        for (const p of this.image.pointers) {
          if (p.at < s.vaddr || p.at + word > s.vaddr + s.size) continue;
          const target = this.reference(p.target, false);
          if (target)
            patches.push(`  { uint${word * 8}_t v = ${target}; memcpy(${c.name} + ${p.at - s.vaddr}, &v, ${word}); }`);
        }
      }
      done = list.length;
    }
    for (const g of this.globals.values()) out.push(`static uint8_t *const ${g.name} = ${g.copy.name} + ${g.offset};`);
    out.push(
      `static void bl_init(void) {\n  static int done;\n  if (done) return;\n  done = 1;\n${patches.join('\n')}\n}`,
    );
    return out.join('\n');
  }
}
