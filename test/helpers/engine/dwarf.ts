// Test support for src/engine/types/dwarf: DWARF sections written field by field — abbreviation tables,
// units of every version with DIEs whose references are resolved by label, line table headers — and an
// ELF around them that the real parser reads, so tests need no binaries on disk.
import { parseElf } from '../../../src/engine/formats/elf/index.js';
import type { BinaryImage } from '../../../src/engine/formats/image.js';
import { FORM, UT } from '../../../src/engine/types/dwarf/constants.js';
import { buildElf } from './elf.js';

/** Growable bytes in one byte order, with LEB128 and patching. */
export class Writer {
  private buf: number[] = [];

  constructor(readonly little = true) {}

  get length(): number {
    return this.buf.length;
  }

  uint(size: number, value: number | bigint): this {
    const v = BigInt.asUintN(size * 8, BigInt(value));
    for (let i = 0; i < size; i++) {
      const shift = BigInt(8 * (this.little ? i : size - 1 - i));
      this.buf.push(Number((v >> shift) & 0xffn));
    }
    return this;
  }
  u8(v: number): this {
    return this.uint(1, v);
  }
  u16(v: number): this {
    return this.uint(2, v);
  }
  u32(v: number): this {
    return this.uint(4, v);
  }
  u64(v: number | bigint): this {
    return this.uint(8, v);
  }
  uleb(v: number | bigint): this {
    this.buf.push(...uleb(v));
    return this;
  }
  sleb(v: number | bigint): this {
    this.buf.push(...sleb(v));
    return this;
  }
  cstr(s: string): this {
    this.buf.push(...new TextEncoder().encode(s), 0);
    return this;
  }
  raw(bytes: ArrayLike<number>): this {
    for (let i = 0; i < bytes.length; i++) this.buf.push(bytes[i]! & 0xff);
    return this;
  }
  /** Overwrites `size` bytes at `at` (a length or reference written before its value was known). */
  patch(at: number, size: number, value: number | bigint): this {
    const tail = this.buf.splice(at);
    this.uint(size, value);
    this.buf.push(...tail.slice(size));
    return this;
  }
  bytes(): Uint8Array {
    return Uint8Array.from(this.buf);
  }
}

export function uleb(value: number | bigint): number[] {
  let v = BigInt(value);
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) b |= 0x80;
    out.push(b);
  } while (v !== 0n);
  return out;
}

export function sleb(value: number | bigint): number[] {
  let v = BigInt(value);
  const out: number[] = [];
  for (;;) {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    const done = (v === 0n && (b & 0x40) === 0) || (v === -1n && (b & 0x40) !== 0);
    out.push(done ? b : b | 0x80);
    if (done) return out;
  }
}

/** An expression (DW_FORM_exprloc's bytes) from operator bytes and LEB128 operands already encoded. */
export const expr = (...parts: (number | number[])[]): Uint8Array => Uint8Array.from(parts.flat());

export interface AbbrevSpec {
  tag: number;
  children?: boolean;
  /** Attribute, form and, for DW_FORM_implicit_const, the value. */
  attrs: [attr: number, form: number, implicit?: number][];
}

/** The abbreviation table of `list`, numbered from 1 in order. */
export function abbrevTable(list: AbbrevSpec[]): Uint8Array {
  const w = new Writer();
  list.forEach((a, i) => {
    w.uleb(i + 1)
      .uleb(a.tag)
      .u8(a.children ? 1 : 0);
    for (const [attr, form, implicit] of a.attrs) {
      w.uleb(attr).uleb(form);
      if (form === FORM.implicit_const) w.sleb(implicit ?? 0);
    }
    w.uleb(0).uleb(0);
  });
  w.uleb(0);
  return w.bytes();
}

export type Value = number | bigint | string | Uint8Array | { ref: string };

export interface DieSpec {
  /** Abbreviation code: the 1-based position in the unit's `abbrevs`. */
  abbrev: number;
  label?: string;
  values?: (Value | undefined)[];
  children?: DieSpec[];
}

export interface UnitSpec {
  version: 2 | 3 | 4 | 5;
  abbrevs: AbbrevSpec[];
  root: DieSpec;
  unitType?: number;
  addressSize?: 2 | 4 | 8;
  dwarf64?: boolean;
  little?: boolean;
  abbrevOffset?: number;
  /** Type units: the signature, and the label of the type DIE. In .debug_types when version is 4. */
  signature?: bigint;
  typeLabel?: string;
}

interface Fixup {
  at: number;
  size: number;
  label: string;
  absolute: boolean;
}

class UnitWriter {
  readonly w: Writer;
  readonly labels = new Map<string, number>();
  readonly fixups: Fixup[] = [];
  readonly offsetSize: 4 | 8;
  readonly addressSize: number;

  constructor(readonly spec: UnitSpec) {
    this.w = new Writer(spec.little ?? true);
    this.offsetSize = spec.dwarf64 ? 8 : 4;
    this.addressSize = spec.addressSize ?? 8;
  }

  value(form: number, v: Value | undefined): void {
    const { w } = this;
    if (typeof v === 'object' && !(v instanceof Uint8Array)) {
      const size =
        form === FORM.ref_addr ? (this.spec.version <= 2 ? this.addressSize : this.offsetSize) : REF_SIZES[form];
      if (!size) throw new Error(`form 0x${form.toString(16)} cannot hold a label`);
      this.fixups.push({ at: w.length, size, label: v.ref, absolute: form === FORM.ref_addr });
      w.uint(size, 0);
      return;
    }
    // Raw bytes stand for any value (an overlong LEB128, a damaged field); an unknown form with no value
    // writes nothing, so tests can declare forms no reader knows.
    if (v instanceof Uint8Array && !BLOCK_FORMS.has(form)) {
      w.raw(v);
      return;
    }
    if (v === undefined && !(form in FIXED_SIZES) && !KNOWN_VARIABLE.has(form)) return;
    const n = typeof v === 'number' || typeof v === 'bigint' ? v : 0;
    switch (form) {
      case FORM.flag_present:
      case FORM.implicit_const:
        return;
      case FORM.string:
        w.cstr(String(v));
        return;
      case FORM.sdata:
        w.sleb(n);
        return;
      case FORM.udata:
      case FORM.strx:
      case FORM.addrx:
      case FORM.rnglistx:
      case FORM.loclistx:
        w.uleb(n);
        return;
      case FORM.exprloc:
      case FORM.block:
        w.uleb((v as Uint8Array).length).raw(v as Uint8Array);
        return;
      case FORM.block1:
        w.u8((v as Uint8Array).length).raw(v as Uint8Array);
        return;
      case FORM.data16:
        w.raw(v as Uint8Array);
        return;
      case FORM.addr:
        w.uint(this.addressSize, n);
        return;
      case FORM.strp:
      case FORM.line_strp:
      case FORM.sec_offset:
        w.uint(this.offsetSize, n);
        return;
      default: {
        const size = FIXED_SIZES[form];
        if (!size) throw new Error(`the writer has no encoding for form 0x${form.toString(16)}`);
        w.uint(size, n);
      }
    }
  }

  die(d: DieSpec): void {
    const a = this.spec.abbrevs[d.abbrev - 1];
    if (!a) throw new Error(`no abbreviation ${d.abbrev}`);
    if (d.label) this.labels.set(d.label, this.w.length);
    this.w.uleb(d.abbrev);
    a.attrs.forEach(([, form], i) => this.value(form, d.values?.[i]));
    if (!a.children) return;
    for (const c of d.children ?? []) this.die(c);
    this.w.u8(0);
  }
}

const REF_SIZES: Record<number, number> = { [FORM.ref1]: 1, [FORM.ref2]: 2, [FORM.ref4]: 4, [FORM.ref8]: 8 };
const BLOCK_FORMS = new Set<number>([FORM.exprloc, FORM.block, FORM.block1, FORM.data16]);
const KNOWN_VARIABLE = new Set<number>([
  ...BLOCK_FORMS,
  FORM.string,
  FORM.sdata,
  FORM.udata,
  FORM.strx,
  FORM.addrx,
  FORM.rnglistx,
  FORM.loclistx,
  FORM.addr,
  FORM.strp,
  FORM.line_strp,
  FORM.sec_offset,
]);
const FIXED_SIZES: Record<number, number> = {
  ...REF_SIZES,
  [FORM.data1]: 1,
  [FORM.flag]: 1,
  [FORM.strx1]: 1,
  [FORM.addrx1]: 1,
  [FORM.data2]: 2,
  [FORM.strx2]: 2,
  [FORM.addrx2]: 2,
  [FORM.strx3]: 3,
  [FORM.addrx3]: 3,
  [FORM.data4]: 4,
  [FORM.strx4]: 4,
  [FORM.addrx4]: 4,
  [FORM.data8]: 8,
  [FORM.ref_sig8]: 8,
};

/** One unit's bytes as they would sit at `sectionOffset` of their section (for DW_FORM_ref_addr). */
export function unitBytes(spec: UnitSpec, sectionOffset = 0): Uint8Array {
  return unitLayout(spec, sectionOffset).bytes;
}

/** One unit's bytes and the unit-relative offset of each labelled DIE (for tests that damage one). */
export function unitLayout(spec: UnitSpec, sectionOffset = 0): { bytes: Uint8Array; labels: Map<string, number> } {
  const u = new UnitWriter(spec);
  const { w, offsetSize } = u;
  if (spec.dwarf64) w.u32(0xffff_ffff).u64(0);
  else w.u32(0);
  const afterLength = w.length;
  w.u16(spec.version);
  const typeUnit = spec.signature !== undefined;
  if (spec.version >= 5) {
    w.u8(spec.unitType ?? (typeUnit ? UT.type : UT.compile))
      .u8(u.addressSize)
      .uint(offsetSize, spec.abbrevOffset ?? 0);
  } else {
    w.uint(offsetSize, spec.abbrevOffset ?? 0).u8(u.addressSize);
  }
  let typeOffsetAt = -1;
  if (typeUnit) {
    w.u64(spec.signature!);
    typeOffsetAt = w.length;
    w.uint(offsetSize, 0);
  }
  u.die(spec.root);
  w.patch(afterLength - offsetSize, offsetSize, w.length - afterLength);
  if (typeOffsetAt >= 0) w.patch(typeOffsetAt, offsetSize, u.labels.get(spec.typeLabel ?? '') ?? 0);
  for (const f of u.fixups) {
    const target = u.labels.get(f.label);
    if (target === undefined) throw new Error(`no DIE labelled ${f.label}`);
    w.patch(f.at, f.size, (f.absolute ? sectionOffset : 0) + target);
  }
  return { bytes: w.bytes(), labels: u.labels };
}

/** The units one after another, as a .debug_info (or .debug_types) section. */
export function infoSection(units: UnitSpec[]): Uint8Array {
  const parts: Uint8Array[] = [];
  let offset = 0;
  for (const spec of units) {
    const bytes = unitBytes(spec, offset);
    parts.push(bytes);
    offset += bytes.length;
  }
  return concat(parts);
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A DWARF 2–4 line table header naming `files` (index 1 onward), with no line program. */
export function lineTableV4(files: string[], version: 2 | 3 | 4 = 4, little = true): Uint8Array {
  const w = new Writer(little);
  w.u32(0).u16(version).u32(0);
  const headerStart = w.length;
  w.u8(1);
  if (version >= 4) w.u8(1);
  w.u8(1).u8(0xfb).u8(14).u8(13).raw([0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1]);
  w.cstr('/src/include').u8(0);
  for (const f of files) w.cstr(f).uleb(1).uleb(0).uleb(0);
  w.u8(0);
  w.patch(headerStart - 4, 4, w.length - headerStart);
  w.patch(0, 4, w.length - 4);
  return w.bytes();
}

/** A DWARF 5 line table header naming `files` (index 0 onward) as inline strings, with no line program. */
export function lineTableV5(files: string[]): Uint8Array {
  const w = new Writer();
  w.u32(0).u16(5).u8(8).u8(0).u32(0);
  const headerStart = w.length;
  w.u8(1).u8(1).u8(1).u8(0xfb).u8(14).u8(13).raw([0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1]);
  // Directories: path as a string. Files: path as a string, directory index as udata, an MD5 (data16).
  w.u8(1).uleb(1).uleb(FORM.string).uleb(1).cstr('/src');
  w.u8(3).uleb(1).uleb(FORM.string).uleb(2).uleb(FORM.udata).uleb(5).uleb(FORM.data16);
  w.uleb(files.length);
  for (const f of files) w.cstr(f).uleb(0).raw(new Uint8Array(16));
  w.patch(headerStart - 4, 4, w.length - headerStart);
  w.patch(0, 4, w.length - 4);
  return w.bytes();
}

export interface ElfOptions {
  bits?: 32 | 64;
  little?: boolean;
  machine?: number;
}

/** An ELF whose sections are `sections` (name → bytes), parsed by the real ELF parser. */
export function elfWithSections(sections: Record<string, Uint8Array>, opts: ElfOptions = {}): BinaryImage {
  const bytes = buildElf({
    bits: opts.bits ?? 64,
    little: opts.little ?? true,
    machine: opts.machine ?? 62,
    sections: Object.entries(sections).map(([name, data]) => ({ name, type: 1, data })),
  });
  return parseElf(bytes);
}
