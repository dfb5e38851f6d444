// DIE → CType. Structures, unions and enums become references by tag (their definitions are read later,
// from `pending`, by definitions.ts), so a struct that points to itself is finite without any check. What
// can still loop — typedef, qualifier, pointer and array chains in damaged DWARF — is stopped by the set of
// DIEs being converted and by a depth limit, and becomes void with a diagnostic.
import {
  VOID,
  type CType,
  type FloatSize,
  type IntSize,
  type Param,
  type Prototype,
  type TypeTable,
} from '../ctype.js';
import { constant, flag, has, referencedDie, signatureRef, string } from './attributes.js';
import { AT, ATE, TAG } from './constants.js';
import type { Diagnostics } from './diagnostics.js';
import { tagOf, type Die } from './die.js';
import { declFile } from './line-files.js';
import { originChain, withAttribute } from './origins.js';

/** Type nesting followed before giving up: C's deepest real chains (pointer to function returning pointer to …) stay under 20. */
const MAX_TYPE_DEPTH = 64;

const INT_SIZES: readonly number[] = [1, 2, 4, 8, 16];
const FLOAT_SIZES: readonly number[] = [4, 8, 10, 12, 16];

const hex = (n: number): string => `0x${n.toString(16)}`;
const pointerSize = (bytes: number): 4 | 8 => (bytes > 4 ? 8 : 4);
const isIntSize = (n: number): n is IntSize => INT_SIZES.includes(n);

/** The tag of a structure, union or enum: its name, else where it is declared, else its DIE. */
function tagName(die: Die): string {
  const name = string(die, AT.name);
  if (name) return name;
  const file = declFile(die.unit, constant(die, AT.decl_file) ?? -1);
  const line = constant(die, AT.decl_line);
  return file && line !== null ? `<anonymous@${file}:${line}>` : `<anonymous@${hex(die.offset)}>`;
}

/** An enum's size: DW_AT_byte_size when it is an integer size, else int's 4. */
function enumSize(die: Die): IntSize {
  const size = constant(die, AT.byte_size) ?? 4;
  return isIntSize(size) ? size : 4;
}

/** Bytes of a size no C type has (a 3-byte base type): kept as an array so layouts stay right. */
const bytes = (count: number): CType => ({
  kind: 'array',
  of: { kind: 'int', size: 1, signed: false, name: 'unsigned char' },
  count,
});

function baseType(die: Die, diagnostics: Diagnostics): CType {
  const name = string(die, AT.name) ?? undefined;
  const size = constant(die, AT.byte_size) ?? 0;
  const encoding = constant(die, AT.encoding) ?? 0;
  switch (encoding) {
    case ATE.boolean:
      if (size === 1 || size === 4) return { kind: 'bool', size };
      return isIntSize(size) ? { kind: 'int', size, signed: false, name } : bytes(size);
    case ATE.float:
      if (FLOAT_SIZES.includes(size)) return { kind: 'float', size: size as FloatSize };
      break;
    case ATE.complex_float:
      // C's _Complex is laid out as two floats of half its size.
      if (FLOAT_SIZES.includes(size / 2))
        return { kind: 'array', of: { kind: 'float', size: (size / 2) as FloatSize }, count: 2 };
      break;
    case ATE.signed:
    case ATE.signed_char:
      if (isIntSize(size))
        return name ? { kind: 'int', size, signed: true, name } : { kind: 'int', size, signed: true };
      break;
    case ATE.unsigned:
    case ATE.unsigned_char:
    case ATE.UTF:
    case ATE.UCS:
    case ATE.ASCII:
    case ATE.address:
      if (isIntSize(size))
        return name ? { kind: 'int', size, signed: false, name } : { kind: 'int', size, signed: false };
      break;
  }
  diagnostics.add(`base type ${name ?? hex(die.offset)} (encoding ${encoding}, ${size} bytes) kept as bytes`);
  return bytes(size);
}

/** Elements of one array dimension; 0 when unknown (flexible array members, VLAs). */
function elementCount(sub: Die): number {
  const count = constant(sub, AT.count);
  if (count !== null) return Number.isSafeInteger(count) && count > 0 ? count : 0;
  const upper = constant(sub, AT.upper_bound);
  // GCC wrote a flexible array's bound as -1: all ones in an unsigned form.
  if (upper === null || upper < 0 || !Number.isSafeInteger(upper)) return 0;
  if (upper === 0xffff_ffff && sub.unit.addressSize === 4) return 0;
  const n = upper - (constant(sub, AT.lower_bound) ?? 0) + 1;
  return Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/** `t` with every typedef replaced by what it names, for comparing types that are spelled differently. */
function withoutTypedefs(t: CType, depth = 0): CType {
  if (depth > MAX_TYPE_DEPTH) return t;
  const inner = (x: CType): CType => withoutTypedefs(x, depth + 1);
  switch (t.kind) {
    case 'typedef':
      return inner(t.to);
    case 'pointer':
    case 'const':
    case 'volatile':
      return { ...t, to: inner(t.to) };
    case 'array':
      return { ...t, of: inner(t.of) };
    case 'function': {
      const params = t.proto.params.map((p) => ({ name: '', type: inner(p.type) }));
      return { kind: 'function', proto: { returns: inner(t.proto.returns), params, variadic: t.proto.variadic } };
    }
    default:
      return t;
  }
}

/** The same type once typedefs are looked through (`uint8_t` and `unsigned char` are one type). */
const sameType = (a: CType, b: CType): boolean =>
  JSON.stringify(withoutTypedefs(a)) === JSON.stringify(withoutTypedefs(b));

export class TypeBuilder {
  readonly table: TypeTable = new Map();
  readonly typedefs = new Map<string, CType>();
  /** Structure, union and enum DIEs whose definitions are still to be read (definitions.ts). */
  readonly pending: Die[] = [];
  /** Typedef names that several units define as different types (the first is kept). */
  readonly typedefConflicts = new Set<string>();
  private readonly memo = new Map<number, CType>();
  private readonly active = new Set<number>();

  constructor(readonly diagnostics: Diagnostics) {}

  /** The type `die`'s DW_AT_type names; void when it names none (C's void returns and pointers). */
  typeAttr(die: Die, depth = 0): CType {
    if (!has(die, AT.type)) return VOID;
    const target = referencedDie(die, AT.type);
    return target ? this.typeOf(target, depth + 1) : this.unresolved(die);
  }

  typeOf(die: Die, depth = 0): CType {
    const known = this.memo.get(die.offset);
    if (known) return known;
    if (depth > MAX_TYPE_DEPTH) {
      this.diagnostics.add(`type nesting deeper than ${MAX_TYPE_DEPTH} at DIE ${hex(die.offset)}: cut to void`);
      return VOID;
    }
    if (this.active.has(die.offset)) {
      this.diagnostics.add(`type cycle through DIE ${hex(die.offset)}: cut to void`);
      return VOID;
    }
    this.active.add(die.offset);
    let t: CType;
    try {
      t = this.convert(die, depth);
    } finally {
      this.active.delete(die.offset);
    }
    this.memo.set(die.offset, t);
    return t;
  }

  /** Parameters and variadic-ness from `die`'s children (a subroutine type or a subprogram). */
  prototype(die: Die, returns: CType, depth = 0): Prototype {
    const params: Param[] = [];
    let variadic = false;
    for (const c of die.children ?? []) {
      const tag = tagOf(c);
      if (tag === TAG.unspecified_parameters) variadic = true;
      else if (tag === TAG.formal_parameter) {
        const chain = originChain(c);
        const named = withAttribute(chain, AT.name);
        const typed = withAttribute(chain, AT.type);
        params.push({
          name: (named && string(named, AT.name)) ?? '',
          type: typed ? this.typeAttr(typed, depth) : VOID,
        });
      }
    }
    return { returns, params, variadic };
  }

  /** Records a typedef by name; the first unit to define a name wins. */
  addTypedef(die: Die): void {
    const name = string(die, AT.name);
    if (!name) return;
    const target = this.typeAttr(die);
    const known = this.typedefs.get(name);
    if (!known) this.typedefs.set(name, target);
    else if (known !== target && !sameType(known, target)) this.typedefConflicts.add(name);
  }

  /** A reference the file cannot resolve: a type unit not present (opaque), or damage (void). */
  private unresolved(die: Die): CType {
    const signature = signatureRef(die, AT.type);
    if (signature === null) {
      this.diagnostics.add(`DW_AT_type of DIE ${hex(die.offset)} names no DIE`);
      return VOID;
    }
    const tag = `<signature ${signature}>`;
    if (!this.table.has(`struct ${tag}`))
      this.table.set(`struct ${tag}`, { kind: 'struct', tag, size: null, members: [] });
    return { kind: 'struct', tag };
  }

  private convert(die: Die, depth: number): CType {
    switch (tagOf(die)) {
      case TAG.base_type:
        return baseType(die, this.diagnostics);
      case TAG.pointer_type:
      case TAG.reference_type:
      case TAG.rvalue_reference_type:
      case TAG.ptr_to_member_type: {
        const size = pointerSize(constant(die, AT.byte_size) ?? die.unit.addressSize);
        return { kind: 'pointer', to: this.typeAttr(die, depth), size };
      }
      case TAG.const_type:
        return { kind: 'const', to: this.typeAttr(die, depth) };
      case TAG.volatile_type:
        return { kind: 'volatile', to: this.typeAttr(die, depth) };
      case TAG.restrict_type:
      case TAG.atomic_type:
      case TAG.immutable_type:
        // Qualifiers the model does not keep: they change neither layout nor calling convention.
        return this.typeAttr(die, depth);
      case TAG.typedef:
        return {
          kind: 'typedef',
          name: string(die, AT.name) ?? `typedef@${hex(die.offset)}`,
          to: this.typeAttr(die, depth),
        };
      case TAG.array_type:
        return this.array(die, depth);
      case TAG.structure_type:
      case TAG.class_type:
      case TAG.union_type:
      case TAG.enumeration_type:
        return this.tagged(die, depth);
      case TAG.subroutine_type:
        return { kind: 'function', proto: this.prototype(die, this.typeAttr(die, depth), depth) };
      case TAG.unspecified_type:
        return VOID;
      default:
        this.diagnostics.add(`DIE ${hex(die.offset)} with tag ${hex(tagOf(die))} used as a type: read as void`);
        return VOID;
    }
  }

  private array(die: Die, depth: number): CType {
    const dims = (die.children ?? []).filter((c) => tagOf(c) === TAG.subrange_type);
    let t = this.typeAttr(die, depth);
    if (dims.length === 0) return { kind: 'array', of: t, count: 0 };
    for (let i = dims.length - 1; i >= 0; i--) t = { kind: 'array', of: t, count: elementCount(dims[i]!) };
    return t;
  }

  /** A reference by tag; a declaration that names its type unit (DW_AT_signature) stands for that type. */
  private tagged(die: Die, depth: number): CType {
    const full = flag(die, AT.declaration) ? referencedDie(die, AT.signature) : null;
    if (full && full !== die) return this.typeOf(full, depth + 1);
    this.pending.push(die);
    const tag = tagName(die);
    switch (tagOf(die)) {
      case TAG.enumeration_type:
        return { kind: 'enum', tag, size: enumSize(die) };
      case TAG.union_type:
        return { kind: 'union', tag };
      default:
        return { kind: 'struct', tag };
    }
  }
}
