// The named C types a function's data types use, read from their spelling. Each analysis keeps one table of
// the types its functions use (store/analysis-data-types.ts) with an id per distinct spelling, so signatures
// can name types by id (/v3) and a structure is defined once for every function that uses it.
import type { FunctionTypesRecord, TypeDependencyRecord, TypedValue } from './type-records.js';

export const DATA_TYPE_KINDS = [
  'STRUCT',
  'UNION',
  'ENUM',
  'TYPEDEF',
  'POINTER',
  'ARRAY',
  'FUNCTION_DEFINITION',
  'BITFIELD',
  'BASE',
  'UNKNOWN',
] as const;
export type DataTypeKind = (typeof DATA_TYPE_KINDS)[number];

export interface StructMemberDefinition {
  name: string;
  offset: number;
  type: string;
  size: number;
}

/**
 * What a type is made of, by kind: a structure's or union's members (keyed by their offset in hex), an
 * enumeration's values by name, the type a typedef names, a pointer points to or an array holds (with its
 * element count), a bit-field's base type and width, a function type's declaration.
 */
export interface DataTypeDefinition {
  members?: Record<string, StructMemberDefinition | number>;
  type?: string;
  count?: number;
  bit_size?: number;
}

/** One entry of an analysis's type table: a type by its C spelling. */
export interface DataTypeEntry {
  name: string;
  kind: DataTypeKind;
  /** Bytes, when known. */
  size: number | null;
  definition: DataTypeDefinition | null;
}

/** A number as the wire keys arguments, stack variables and members: `0x10`, `-0x18`. */
export const hexKey = (n: number) => `${n < 0 ? '-' : ''}0x${Math.abs(n).toString(16)}`;

/** Whitespace collapsed, and a space before a pointer's first star (`char*` → `char *`): one spelling per type. */
export const normaliseSpelling = (s: string) =>
  s
    .replace(/\s+/g, ' ')
    .replace(/([^\s*(])\*/g, '$1 *')
    .trim();

/** Sizes of the base types whose size does not depend on the target. */
const BASE_SIZES: Record<string, number | null> = {
  void: null,
  bool: 1,
  _Bool: 1,
  char: 1,
  'signed char': 1,
  'unsigned char': 1,
  short: 2,
  'unsigned short': 2,
  int: 4,
  'unsigned int': 4,
  unsigned: 4,
  'long long': 8,
  'unsigned long long': 8,
  float: 4,
  double: 8,
  'long double': 10,
  wchar_t: null,
  long: null,
  'unsigned long': null,
  size_t: null,
  ssize_t: null,
  intptr_t: null,
  uintptr_t: null,
  ptrdiff_t: null,
  ...Object.fromEntries([8, 16, 32, 64, 128].flatMap((b) => [`int${b}_t`, `uint${b}_t`].map((n) => [n, b / 8]))),
};

/** A pointer's last star and the qualifiers after it: `char *`, `char *const`. */
const POINTER_SUFFIX = /\s*\*\s*((const|volatile)\s*)*$/;

const unqualified = (s: string) => s.replace(/^((const|volatile) )+/, '');

/** The kind a spelling names; `typedefs` are the names the function's dependencies define as typedefs. */
export function spellingKind(name: string, typedefs: ReadonlySet<string> = new Set()): DataTypeKind {
  if (typedefs.has(name)) return 'TYPEDEF';
  if (name.endsWith(']')) return 'ARRAY';
  if (/\(\s*\*/.test(name)) return 'POINTER'; // a pointer to a function or an array: `int (*)(int)`
  if (name.endsWith(')')) return 'FUNCTION_DEFINITION';
  if (POINTER_SUFFIX.test(name)) return 'POINTER';
  const bare = unqualified(name);
  if (bare.startsWith('struct ')) return 'STRUCT';
  if (bare.startsWith('union ')) return 'UNION';
  if (bare.startsWith('enum ')) return 'ENUM';
  return bare in BASE_SIZES ? 'BASE' : 'UNKNOWN';
}

/** What a pointer points to or an array holds, as its own entry (null for other kinds). */
function referent(name: string, kind: DataTypeKind): { name: string; definition: DataTypeDefinition } | null {
  if (kind === 'POINTER' && !name.includes('(')) {
    const to = name.replace(POINTER_SUFFIX, '');
    return { name: to, definition: { type: to } };
  }
  const array = kind === 'ARRAY' ? /^(.*?) ?\[(\d*)\]$/.exec(name) : null;
  if (array)
    return { name: array[1]!, definition: { type: array[1]!, ...(array[2] ? { count: Number(array[2]) } : {}) } };
  return null;
}

/**
 * Members keyed by their offset in hex, as the wire keys them; a member sharing its offset with an earlier one (a
 * union's, a bit-field's) by its name.
 */
export function memberMap(members: StructMemberDefinition[]): Record<string, StructMemberDefinition> {
  const out: Record<string, StructMemberDefinition> = {};
  for (const m of members)
    out[hexKey(m.offset) in out ? m.name : hexKey(m.offset)] = { ...m, type: normaliseSpelling(m.type) };
  return out;
}

/** A dependency's spelling as a type: `struct stream` for the structure `stream` (a typedef is its own name). */
const depSpelling = (d: Exclude<TypeDependencyRecord, { kind: 'global' }>) =>
  d.kind === 'typedef' || d.name.startsWith(`${d.kind} `) ? d.name : `${d.kind} ${d.name}`;

/**
 * Every type a function's record uses: its return, argument and stack variable types, what those point to or
 * hold, and its dependencies (with their definitions) and their members' types. One entry per spelling, the
 * first definition and size met winning.
 */
export function typesOfRecord(r: FunctionTypesRecord): DataTypeEntry[] {
  const typedefs = new Set(r.deps.filter((d) => d.kind === 'typedef').map((d) => d.name));
  const out = new Map<string, DataTypeEntry>();
  const add = (spelling: string, size: number | null, definition: DataTypeDefinition | null = null) => {
    const name = normaliseSpelling(spelling);
    if (!name) return;
    const known = out.get(name);
    if (known) {
      known.size ??= size;
      known.definition ??= definition;
      return;
    }
    const kind = spellingKind(name, typedefs);
    const base = kind === 'BASE' ? (BASE_SIZES[unqualified(name)] ?? null) : null;
    const ref = referent(name, kind);
    out.set(name, { name, kind, size: size ?? base, definition: definition ?? ref?.definition ?? null });
    if (ref) add(ref.name, null);
  };
  for (const d of r.deps) {
    if (d.kind === 'global') add(d.type, d.size);
    else if (d.kind === 'typedef') add(depSpelling(d), null, { type: normaliseSpelling(d.type) });
    else if (d.kind === 'enum') add(depSpelling(d), null, { members: { ...d.members } });
    else {
      add(depSpelling(d), d.size, { members: memberMap(d.members) });
    }
    if (d.kind === 'typedef') add(d.type, null);
    if (d.kind === 'struct' || d.kind === 'union') for (const m of d.members) add(m.type, m.size);
  }
  add(r.returnType, null);
  for (const v of [...r.args, ...r.stackVars]) add(v.type, v.size);
  return [...out.values()];
}

type DeclaredDependency = Exclude<TypeDependencyRecord, { kind: 'global' }>;

/**
 * A declared entry (structure, union, enumeration, typedef with a definition) as the dependency record the engine
 * gives: the reading of typesOfRecord undone, so a definition from the type table can travel with a record (a
 * copied signature) or be shown as a function's dependency. Null for other entries.
 */
export function entryDependency(e: DataTypeEntry): DeclaredDependency | null {
  const d = e.definition;
  const tag = e.name.replace(/^(struct|union|enum) /, '');
  const members = Object.values(d?.members ?? {});
  switch (e.kind) {
    case 'STRUCT':
    case 'UNION':
      return d?.members
        ? {
            kind: e.kind === 'STRUCT' ? 'struct' : 'union',
            name: tag,
            size: e.size,
            members: members.filter((m): m is StructMemberDefinition => typeof m === 'object'),
          }
        : null;
    case 'ENUM':
      return d?.members
        ? {
            kind: 'enum',
            name: tag,
            members: Object.fromEntries(Object.entries(d.members).filter(([, v]) => typeof v === 'number')) as Record<
              string,
              number
            >,
          }
        : null;
    case 'TYPEDEF':
      return d?.type === undefined ? null : { kind: 'typedef', name: e.name, type: d.type };
    default:
      return null;
  }
}

/** `type name` as C declares it: `char *s`, `int32_t n`, `int (*f)(int)`. */
const declareValue = (type: string, name: string) =>
  type.includes('(*)') ? type.replace('(*)', `(*${name})`) : `${type}${type.endsWith('*') ? '' : ' '}${name}`;

/** A prototype in C from its parts: `int32_t f(char *a1, int32_t a2)`, `void g(void)`, `int printf(char *a1, ...)`. */
export function declareFunction(returnType: string, name: string, params: TypedValue[], variadic: boolean): string {
  const list = params.map((p) => declareValue(p.type, p.name));
  if (variadic) list.push('...');
  return declareValue(returnType, `${name}(${list.length ? list.join(', ') : 'void'})`);
}
