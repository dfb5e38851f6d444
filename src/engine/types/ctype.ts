// The C type model every part of type recovery speaks: DWARF import, the prototype database, signature
// recovery, the wire (FunctionTypeOutput spells types as C text) and, later, the decompiler. Structures,
// unions and enums are referenced by tag and defined once in a TypeTable, so recursive types are finite.

export type IntSize = 1 | 2 | 4 | 8 | 16;
/** 12: i386's long double (the x87 80-bit format padded to 4-byte alignment); 16 elsewhere. */
export type FloatSize = 4 | 8 | 10 | 12 | 16;

export type CType =
  | { kind: 'void' }
  /** `name` keeps the C spelling (`char`, `unsigned long`, `size_t` resolved) when it is not `intN_t`. */
  | { kind: 'int'; size: IntSize; signed: boolean; name?: string }
  | { kind: 'bool'; size: 1 | 4 }
  | { kind: 'float'; size: FloatSize }
  | { kind: 'pointer'; to: CType; size: 4 | 8 }
  | { kind: 'array'; of: CType; count: number }
  | { kind: 'struct' | 'union'; tag: string }
  | { kind: 'enum'; tag: string; size: IntSize }
  | { kind: 'function'; proto: Prototype }
  | { kind: 'typedef'; name: string; to: CType }
  | { kind: 'const' | 'volatile'; to: CType };

export interface Param {
  name: string;
  type: CType;
}

export interface Prototype {
  returns: CType;
  params: Param[];
  variadic: boolean;
}

export interface Member {
  name: string;
  /** Bytes from the start of the structure. */
  offset: number;
  type: CType;
  /** Bit-fields only: width and offset in bits from the start of the structure. */
  bitSize?: number;
  bitOffset?: number;
}

export type TypeDefinition =
  | { kind: 'struct' | 'union'; tag: string; size: number | null; members: Member[] }
  | { kind: 'enum'; tag: string; size: IntSize; enumerators: { name: string; value: number }[] };

/** Definitions of the structures, unions and enums types refer to, by tag. */
export type TypeTable = Map<string, TypeDefinition>;

/** The coarse classes of type scoring and of signature recovery's evidence (the corpus README's `class`). */
export type CoarseClass =
  | 'int8'
  | 'int16'
  | 'int32'
  | 'int64'
  | 'int128'
  | 'pointer'
  | 'float32'
  | 'float64'
  | 'longdouble'
  | 'struct'
  | 'union'
  | 'array'
  | 'function'
  | 'void';

export const VOID: CType = { kind: 'void' };

/** The fixed-width integer of `size` bytes (`int32_t`, `uint8_t`, …). */
export const intType = (size: IntSize, signed = true): CType => ({ kind: 'int', size, signed });

export const pointerTo = (to: CType, size: 4 | 8): CType => ({ kind: 'pointer', to, size });

/** Typedefs and qualifiers looked through. */
export function resolve(t: CType): CType {
  let r = t;
  for (let depth = 0; depth < 64 && (r.kind === 'typedef' || r.kind === 'const' || r.kind === 'volatile'); depth++)
    r = r.to;
  return r;
}

/** Size in bytes, or null when unknown (void, an opaque structure, a function). */
export function sizeOf(t: CType, table: TypeTable, depth = 0): number | null {
  const r = resolve(t);
  switch (r.kind) {
    case 'void':
    case 'function':
      return null;
    case 'int':
    case 'bool':
    case 'float':
    case 'pointer':
    case 'enum':
      return r.size;
    case 'array': {
      const each = depth < 32 ? sizeOf(r.of, table, depth + 1) : null;
      return each === null ? null : each * r.count;
    }
    case 'struct':
    case 'union': {
      const def = table.get(`${r.kind} ${r.tag}`);
      return def && def.kind !== 'enum' ? def.size : null;
    }
    default:
      return null;
  }
}

export function coarseClass(t: CType): CoarseClass {
  const r = resolve(t);
  switch (r.kind) {
    case 'void':
      return 'void';
    case 'int':
      return `int${r.size * 8}` as CoarseClass;
    case 'bool':
      return r.size === 1 ? 'int8' : 'int32';
    case 'enum':
      return `int${r.size * 8}` as CoarseClass;
    case 'float':
      return r.size === 4 ? 'float32' : r.size === 8 ? 'float64' : 'longdouble';
    case 'pointer':
      return 'pointer';
    case 'array':
      return 'array';
    case 'struct':
    case 'union':
      return r.kind;
    case 'function':
      return 'function';
    default:
      return 'void';
  }
}

/** The key a structure, union or enum is defined under in a TypeTable. */
export const tableKey = (t: { kind: 'struct' | 'union' | 'enum'; tag: string }): string => `${t.kind} ${t.tag}`;

/**
 * Standard C spelling: fixed-width names from <stdint.h> for integers without a C name, `bool` from
 * <stdbool.h>, declarators for pointers to arrays and functions. `name` is the declared identifier, if any.
 */
export function formatType(t: CType, name = ''): string {
  return declare(t, name).trim();
}

function declare(t: CType, inner: string, depth = 0): string {
  if (depth > 32) return `void ${inner}`;
  switch (t.kind) {
    case 'void':
      return `void ${inner}`;
    case 'int':
      return `${t.name ?? `${t.signed ? '' : 'u'}int${t.size * 8}_t`} ${inner}`;
    case 'bool':
      return `bool ${inner}`;
    case 'float':
      return `${t.size === 4 ? 'float' : t.size === 8 ? 'double' : 'long double'} ${inner}`;
    case 'struct':
    case 'union':
    case 'enum':
      return `${t.kind} ${t.tag} ${inner}`;
    case 'typedef':
      return `${t.name} ${inner}`;
    case 'const':
    case 'volatile':
      // `const char *p`: the qualifier before a base type; `char *const p` after a pointer's star.
      return t.to.kind === 'pointer'
        ? declare(t.to, `${t.kind} ${inner}`.trim(), depth + 1)
        : `${t.kind} ${declare(t.to, inner, depth + 1)}`;
    case 'pointer': {
      const needsParens = t.to.kind === 'array' || t.to.kind === 'function';
      return declare(t.to, needsParens ? `(*${inner.trim()})` : `*${inner.trim()}`, depth + 1);
    }
    case 'array':
      return declare(t.of, `${inner.trim()}[${t.count}]`, depth + 1);
    case 'function':
      return declare(t.proto.returns, `${inner.trim()}(${formatParams(t.proto)})`, depth + 1);
  }
}

/** The parameter list of a prototype as C writes it: `(void)` when empty and not variadic. */
export function formatParams(p: Prototype): string {
  const params = p.params.map((x) => formatType(x.type, x.name));
  if (p.variadic) params.push('...');
  return params.length ? params.join(', ') : 'void';
}

/** `int32_t f(char *a1, int32_t a2)`. */
export const formatPrototype = (name: string, p: Prototype): string => formatType({ kind: 'function', proto: p }, name);
