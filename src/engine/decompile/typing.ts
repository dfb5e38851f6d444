// A function's data types (its FunctionTypesRecord: DWARF's, a library's, the user's edits, or recovered)
// as the decompiler writes them: parameter and local names, C types wherever a type changes nothing of
// what the code computes (every expression still computes in the width's unsigned type: a typed value is
// converted where it is read and where it is assigned), and structures as layouts whose members sit at the
// recorded offsets, so `p->len` reads exactly the bytes `*(uint32_t *)(p + 8)` did.
import type { FunctionTypesRecord, TypedValue, TypeDependencyRecord } from '../../shared/type-records.js';
import { createScope, parseDeclarations, parseTypeName, type DeclarationScope } from '../types/c-parse/index.js';
import type { DataModel } from '../types/c-parse/index.js';
import { formatType, resolve, type CType } from '../types/index.js';
import { C_KEYWORDS, operand, RESERVED, uType } from './c-names.js';

/** A value of a declared C type as the expressions read and assign it. */
export interface ValueC {
  /** The type as declarations spell it (standard C: no typedef the output does not define). */
  spelled: string;
  size: number;
  /** `text`, a value of this type, as its width's unsigned type. */
  read(text: string): string;
  /** `text`, of the width's unsigned type, as a value of this type. */
  write(text: string): string;
  /** What a pointer points to, when its members or elements can be read through it. */
  target: PointerTarget | null;
  /** Output helpers its conversions call (floats as bits). */
  helpers: string[];
}

/** What a typed pointer points to: a laid-out structure (members), or elements of a scalar type (`p[i]`). */
export interface PointerTarget {
  /** Identity, for telling whether two pointers point to the same (`struct item`, `int32_t const`). */
  key: string;
  /** The structure's tag. */
  struct: string | null;
  elem: ValueC | null;
  /** Declared const: read through, never written (C would refuse the assignment). */
  readOnly: boolean;
  /** The pointer's type as a cast spells it (`const struct item *`). */
  pointer: string;
}

/** What the decompiler takes from a function's record. */
export interface FunctionTyping {
  /** By position; a type only where its class and width are the code's (else the class's type). */
  params: { name: string; type: ValueC | null }[];
  returns: ValueC | null;
  /** Frame slots by offset from the entry stack pointer: name, and type where one was declared. */
  locals: Map<number, { name: string; size: number; type: ValueC | null }>;
}

/** One structure's layout as the output defines it, and its members by offset (nested members by path). */
export interface StructLayout {
  tag: string;
  /** The definition, or null when none of its members can sit where the record says (then only declared). */
  text: string | null;
  /** Scalar members, nested ones included, by offset: access path (`hdr.len`) and type. */
  fields: Map<number, { path: string; type: ValueC }>;
  /** Tags its definition needs declared or defined first (members by value first). */
  needs: { tag: string; byValue: boolean }[];
  size: number | null;
}

/** Typedef names the output's headers declare, kept as written. */
const STANDARD_NAMES = new Set([
  ...['size_t', 'ptrdiff_t', 'intptr_t', 'uintptr_t', 'intmax_t', 'uintmax_t', 'wchar_t'],
  ...[8, 16, 32, 64].flatMap((n) => [`int${n}_t`, `uint${n}_t`]),
]);
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SCALAR_SIZES = new Set([1, 2, 4, 8]);
/** Levels of structures inside structures laid out. */
const MAX_NESTING = 8;

/** The decompiler's reading of types records: one per unit, so structures are defined once. */
export class Typings {
  /** Structure layouts by tag, in the order first met (a later, different definition of a tag is not used). */
  readonly structs = new Map<string, StructLayout>();
  /** Tags pointed to whose definitions are unknown: declared only. */
  readonly declaredOnly = new Set<string>();
  /** Every pointer target met, by key. */
  readonly targets = new Map<string, PointerTarget>();

  constructor(
    private readonly model: DataModel,
    private readonly word: 4 | 8,
    /** Whether an identifier is taken in the unit (functions, data, library functions). */
    private readonly taken: (name: string) => boolean,
  ) {}

  /**
   * The typing of a function whose code passes `params` (class widths and whether each is a float or
   * pointer) and returns `returns`; `registers` are the names the output's register variables have.
   */
  of(
    record: FunctionTypesRecord,
    code: { params: (ShapeC | null)[]; returns: ShapeC | null },
    registers: ReadonlySet<string>,
  ): FunctionTyping {
    record = withoutAnonymousTags(record);
    // Recovered frame variables and members are widths, not evidence of a type: named, left unsigned.
    if (record.source === 'recovered') record = unsignedMembers(record);
    const scope = scopeOf(record.deps, this.model);
    // Engine records name a structure `struct tag`, the type table's entries `tag`.
    const deps = new Map(
      record.deps.filter((d) => d.kind === 'struct').map((d) => [`struct ${d.name.replace(/^struct /, '')}`, d]),
    );
    const typeOf = (text: string): ValueC | null => {
      const t = parsed(text, scope);
      return t ? this.valueOf(t, deps, scope, 0) : null;
    };
    const seen = new Set<string>();
    const nameOf = (wanted: string, fallback: string): string => {
      let name = IDENTIFIER.test(wanted) && this.usable(wanted, registers) ? wanted : fallback;
      if (seen.has(name)) name = `${name}_${seen.size}`;
      seen.add(name);
      return name;
    };
    const fits = (t: ValueC | null, shape: ShapeC | null): ValueC | null =>
      t && shape && t.size === shape.size && kindOf(t) === shape.kind ? t : null;
    // Positions of declared and passed parameters agree only when there are as many of each.
    const same = record.args.length === code.params.length;
    const params = code.params.map((shape, i) => {
      const arg = same ? record.args[i] : undefined;
      return { name: nameOf(arg?.name ?? '', `a${i + 1}`), type: arg ? fits(typeOf(arg.type), shape) : null };
    });
    const returns = fits(typeOf(record.returnType), code.returns);
    const typedLocals = record.source !== 'recovered';
    const locals = new Map<number, { name: string; size: number; type: ValueC | null }>();
    for (const v of record.stackVars) {
      if (locals.has(v.offset) || !v.size) continue;
      const type = typedLocals ? typeOf(v.type) : null;
      const name = nameOf(v.name, `local_${(-v.offset).toString(16)}`);
      locals.set(v.offset, { name, size: v.size, type: type?.size === v.size ? type : null });
    }
    return { params, returns, locals };
  }

  /** Whether `name` can name a parameter or local without hiding anything the function's C refers to. */
  private usable(name: string, registers: ReadonlySet<string>): boolean {
    return !C_KEYWORDS.has(name) && !registers.has(name) && !RESERVED.test(name) && !this.taken(name);
  }

  private valueOf(
    t: CType,
    deps: Map<string, TypeDependencyRecord>,
    scope: DeclarationScope,
    depth: number,
  ): ValueC | null {
    const r = resolve(t);
    switch (r.kind) {
      case 'int':
      case 'enum':
      case 'bool': {
        if (!SCALAR_SIZES.has(r.size)) return null;
        const signed = r.kind === 'int' && r.signed;
        const spelled = r.kind === 'int' ? intSpelling(t, r) : uType(r.size);
        return {
          spelled,
          size: r.size,
          read: (x) => (signed ? `(${uType(r.size)})${x}` : x),
          write: (x) => (signed ? (signedLiteral(x, r.size) ?? `(${spelled})${operand(x)}`) : x),
          target: null,
          helpers: [],
        };
      }
      case 'float': {
        if (r.size !== 4 && r.size !== 8) return null;
        const bits = r.size * 8;
        return {
          spelled: r.size === 4 ? 'float' : 'double',
          size: r.size,
          read: (x) => `bl_b${bits}(${x})`,
          write: (x) => `bl_f${bits}(${x})`,
          target: null,
          helpers: [`b${bits}`, `f${bits}`],
        };
      }
      case 'pointer': {
        if (r.size !== this.word) return null;
        const to = this.pointee(r.to, deps, scope, depth);
        const spelled = formatType({ kind: 'pointer', to: to.type, size: r.size });
        const elem = to.struct || depth >= MAX_NESTING ? null : this.element(r.to, deps, scope, depth + 1);
        return {
          spelled,
          size: r.size,
          read: (x) => `(${uType(r.size)})(uintptr_t)${x}`,
          write: (x) => `(${spelled})${pointerOperand(x) ?? `(uintptr_t)${operand(x)}`}`,
          target: to.struct || elem ? this.target(to.struct, elem, isConst(r.to), spelled) : null,
          helpers: [],
        };
      }
      default:
        return null;
    }
  }

  /** A scalar a pointer's elements are (not void, a structure or a function). */
  private element(
    t: CType,
    deps: Map<string, TypeDependencyRecord>,
    scope: DeclarationScope,
    depth: number,
  ): ValueC | null {
    const kind = resolve(t).kind;
    const scalar = ['int', 'enum', 'bool', 'float', 'pointer'].includes(kind);
    return scalar ? this.valueOf(t, deps, scope, depth) : null;
  }

  /** The target, one per key in the unit. */
  private target(struct: string | null, elem: ValueC | null, readOnly: boolean, pointer: string): PointerTarget {
    const key = `${struct ? `struct ${struct}` : elem!.spelled}${readOnly ? ' const' : ''}`;
    let t = this.targets.get(key);
    if (!t) this.targets.set(key, (t = { key, struct, elem, readOnly, pointer }));
    return t;
  }

  /** A pointer's target in standard C (what it cannot spell is void), and the structure it is, if laid out. */
  private pointee(
    t: CType,
    deps: Map<string, TypeDependencyRecord>,
    scope: DeclarationScope,
    depth: number,
  ): { type: CType; struct: string | null } {
    let struct: string | null = null;
    // `top`: the pointer's own target (through qualifiers and typedefs), whose structure members are fields.
    const standard = (x: CType, level: number, top: boolean): CType => {
      if (level > MAX_NESTING) return { kind: 'void' };
      switch (x.kind) {
        case 'const':
        case 'volatile':
          return { kind: x.kind, to: standard(x.to, level + 1, top) };
        case 'typedef':
          return STANDARD_NAMES.has(x.name) ? x : standard(x.to, level + 1, top);
        case 'int':
          return { ...x, name: safeName(x, x) };
        case 'enum':
          return { kind: 'int', size: x.size, signed: false };
        case 'bool':
        case 'float':
        case 'void':
          return x;
        case 'pointer':
          return { kind: 'pointer', to: standard(x.to, level + 1, false), size: x.size };
        case 'struct':
        case 'union': {
          if (!IDENTIFIER.test(x.tag)) return { kind: 'void' };
          const laid = x.kind === 'struct' && top ? this.layout(x.tag, deps, scope, depth + 1) : null;
          if (laid) struct = x.tag;
          else this.declaredOnly.add(`${x.kind} ${x.tag}`);
          return { kind: x.kind, tag: x.tag };
        }
        default:
          return { kind: 'void' };
      }
    };
    const type = standard(t, 0, true);
    return { type, struct };
  }

  /** The structure `tag`'s layout from the record's definition (registered once per unit), or null. */
  private layout(
    tag: string,
    deps: Map<string, TypeDependencyRecord>,
    scope: DeclarationScope,
    depth: number,
  ): StructLayout | null {
    const known = this.structs.get(tag);
    if (known) return known;
    const def = deps.get(`struct ${tag}`);
    if (!def || def.kind !== 'struct') return null;
    // Registered before its members are read: a member pointing back to it finds it.
    const layout: StructLayout = { tag, text: null, fields: new Map(), needs: [], size: def.size };
    this.structs.set(tag, layout);
    const lines: string[] = [];
    let at = 0;
    let align = 1;
    const names = new Set<string>();
    const sameOffset = new Set(
      def.members.filter((m, i) => def.members.some((o, j) => j !== i && o.offset === m.offset)).map((m) => m.offset),
    );
    const members = [...def.members].sort((a, b) => a.offset - b.offset);
    for (const m of members) {
      // Bit-fields share their unit's offset; a member that cannot sit at its offset is left to the padding.
      if (
        m.offset < at ||
        sameOffset.has(m.offset) ||
        !IDENTIFIER.test(m.name) ||
        C_KEYWORDS.has(m.name) ||
        names.has(m.name)
      )
        continue;
      const placed = this.member(m, deps, scope, depth);
      if (!placed || m.offset % placed.align) continue;
      if (m.offset > at) lines.push(`  uint8_t bl_pad_${at.toString(16)}[${m.offset - at}];`);
      lines.push(`  ${placed.declare(m.name)};`);
      names.add(m.name);
      align = Math.max(align, placed.align);
      at = m.offset + placed.size;
      for (const [off, f] of placed.fields)
        layout.fields.set(m.offset + off, { path: f.path ? `${m.name}.${f.path}` : m.name, type: f.type });
      if (placed.needs) layout.needs.push(placed.needs);
    }
    if (!lines.length) {
      this.structs.delete(tag);
      this.declaredOnly.add(`struct ${tag}`);
      return null;
    }
    if (def.size !== null && def.size > at) lines.push(`  uint8_t bl_pad_${at.toString(16)}[${def.size - at}];`);
    // A size the members' alignment would round up is not what the record says: then it is not nested anywhere.
    if (def.size !== null && def.size % align) layout.size = null;
    layout.text = `struct ${tag} {\n${lines.join('\n')}\n};`;
    return layout;
  }

  /** A member as its layout places it: a scalar, or a structure by value whose own layout has its record's size. */
  private member(
    m: TypedValue,
    deps: Map<string, TypeDependencyRecord>,
    scope: DeclarationScope,
    depth: number,
  ): {
    declare: (name: string) => string;
    size: number;
    align: number;
    fields: Map<number, { path: string; type: ValueC }>;
    needs?: { tag: string; byValue: boolean };
  } | null {
    const t = parsed(m.type, scope);
    if (!t) return null;
    const r = resolve(t);
    if (r.kind === 'struct' && IDENTIFIER.test(r.tag) && depth < MAX_NESTING) {
      const inner = this.layout(r.tag, deps, scope, depth + 1);
      if (!inner?.text || inner.size === null || inner.size !== m.size) return null;
      const align = Math.max(...[...inner.fields.values()].map((f) => f.type.size));
      return {
        declare: (name) => `struct ${r.tag} ${name}`,
        size: inner.size,
        align,
        fields: inner.fields,
        needs: { tag: r.tag, byValue: true },
      };
    }
    const v = this.valueOf(t, deps, scope, depth);
    if (!v || v.size !== m.size) return null;
    return {
      declare: (name) => declareAs(v.spelled, name),
      size: v.size,
      align: v.size,
      fields: new Map([[0, { path: '', type: v }]]),
    };
  }

  /** Declarations and definitions of every structure the unit's typings use, each after what it needs. */
  definitions(): string[] {
    const out: string[] = [...this.declaredOnly].map((t) => `${t};`);
    for (const tag of this.structs.keys()) out.push(`struct ${tag};`);
    const done = new Set<string>();
    const define = (tag: string, depth: number): void => {
      const s = this.structs.get(tag);
      if (!s?.text || done.has(tag) || depth > MAX_NESTING * 4) return;
      done.add(tag);
      for (const n of s.needs) if (n.byValue) define(n.tag, depth + 1);
      out.push(s.text);
    };
    for (const tag of this.structs.keys()) define(tag, 0);
    return out;
  }
}

/** A pointer `text` reads as an integer (`(uint64_t)(uintptr_t)p`): `p`, cast as it is to another pointer. */
function pointerOperand(text: string): string | null {
  const m = /^\(uint(?:32|64)_t\)\(uintptr_t\)(.+)$/.exec(text);
  return m && operand(m[1]!) === m[1] ? m[1] : null;
}

/** A literal of the `w`-byte unsigned type (`0xfffffffbu`, `((uint8_t)7)`) as the signed decimal it stores (`-5`). */
function signedLiteral(text: string, w: number): string | null {
  const m = /^(?:\(\(uint(?:8|16)_t\)(0x[0-9a-f]+|\d+)\)|(0x[0-9a-f]+|\d+)u(?:ll)?)$/.exec(text);
  if (!m) return null;
  const v = BigInt.asIntN(w * 8, BigInt(m[1] ?? m[2]!));
  // The most negative value has no literal of its type (its magnitude does not fit).
  return v === -(1n << BigInt(w * 8 - 1)) ? null : v.toString();
}

/** Whether `t` is const-qualified (through typedefs). */
function isConst(t: CType): boolean {
  for (let x = t, i = 0; i < 32; i++) {
    if (x.kind === 'const') return true;
    if (x.kind !== 'typedef' && x.kind !== 'volatile') return false;
    x = x.to;
  }
  return false;
}

/** What the code passes or returns in a position: the class's width and kind. */
export interface ShapeC {
  size: number;
  kind: 'int' | 'float' | 'pointer';
}

const kindOf = (t: ValueC): ShapeC['kind'] =>
  t.spelled === 'float' || t.spelled === 'double' ? 'float' : t.spelled.endsWith('*') ? 'pointer' : 'int';

/** `name` declared with the type `spelled` (`struct node *next`, `int32_t n`). */
export const declareAs = (spelled: string, name: string): string =>
  `${spelled}${spelled.endsWith('*') ? '' : ' '}${name}`;

/** An integer's spelling: its standard name (`size_t`, `unsigned int`), else its width's `intN_t`. */
function intSpelling(t: CType, r: Extract<CType, { kind: 'int' }>): string {
  return formatType({ ...r, name: safeName(t, r) });
}

function safeName(t: CType, r: Extract<CType, { kind: 'int' }>): string | undefined {
  if (t.kind === 'typedef' && STANDARD_NAMES.has(t.name)) return t.name;
  const name = r.name;
  return name && (STANDARD_NAMES.has(name) || /^(signed |unsigned )?(char|short|int|long|long long)( int)?$/.test(name))
    ? name
    : undefined;
}

/**
 * The record with its anonymous structures (`struct <anonymous@lz4frame.h:176>`, as DWARF readers spell
 * them) named after the typedef naming them (`typedef struct {…} LZ4F_frameInfo_t` is `struct
 * LZ4F_frameInfo_t`), else `bl_anon_<n>`, and anonymous enumerations as the `unsigned int` C gives them.
 */
function withoutAnonymousTags(record: FunctionTypesRecord): FunctionTypesRecord {
  const anonymous = /\b(struct|union|enum) <[^<>]*>/g;
  if (!JSON.stringify(record).includes('<')) return record;
  const names = new Map<string, string>();
  for (const d of record.deps)
    if (
      d.kind === 'typedef' &&
      /^(struct|union) <[^<>]*>$/.test(d.type) &&
      IDENTIFIER.test(d.name) &&
      !names.has(d.type)
    )
      names.set(d.type, `${d.type.split(' ')[0]} ${d.name}`);
  const fix = (text: string) =>
    text.replace(anonymous, (m, kind: string) => {
      if (kind === 'enum') return 'unsigned int';
      let n = names.get(m);
      if (!n) names.set(m, (n = `${kind} bl_anon_${names.size}`));
      return n;
    });
  const value = <T extends { type: string }>(v: T): T => ({ ...v, type: fix(v.type) });
  return {
    ...record,
    returnType: fix(record.returnType),
    args: record.args.map(value),
    stackVars: record.stackVars.map(value),
    deps: record.deps.flatMap((d): TypeDependencyRecord[] => {
      switch (d.kind) {
        case 'typedef':
          return [{ ...d, type: fix(d.type) }];
        case 'struct':
        case 'union':
          return [{ ...d, name: fix(d.name), members: d.members.map(value) }];
        default:
          return [d];
      }
    }),
  };
}

/** A recovered record's structure members as their widths' unsigned integers (`intN_t` → `uintN_t`). */
function unsignedMembers(record: FunctionTypesRecord): FunctionTypesRecord {
  const deps = record.deps.map((d): TypeDependencyRecord =>
    d.kind === 'struct'
      ? { ...d, members: d.members.map((m) => ({ ...m, type: m.type.replace(/^int(8|16|32|64)_t$/, 'uint$1_t') })) }
      : d,
  );
  return { ...record, deps };
}

/** The record's typedefs in a scope, each as soon as the ones it uses are (a typedef C cannot restate is left out). */
function scopeOf(deps: TypeDependencyRecord[], model: DataModel): DeclarationScope {
  const scope = createScope(model);
  let left = deps.filter((d): d is Extract<TypeDependencyRecord, { kind: 'typedef' }> => d.kind === 'typedef');
  for (let progress = true; progress && left.length;) {
    progress = false;
    left = left.filter((d) => {
      if (!IDENTIFIER.test(d.name) || /[()[\]]/.test(d.type)) return false;
      try {
        parseDeclarations(`typedef ${d.type} ${d.name};`, scope, 'record');
        progress = true;
        return false;
      } catch {
        return true;
      }
    });
  }
  return scope;
}

function parsed(text: string, scope: DeclarationScope): CType | null {
  try {
    return parseTypeName(text, scope);
  } catch {
    return null;
  }
}
