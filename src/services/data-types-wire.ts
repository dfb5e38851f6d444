// Function data types between the store's records and the /v2 wire (FunctionInfoOutput, FunctionInfoInput). The
// record is C-spelled already, so this is mostly keying: arguments and stack variables by offset in hex, the
// dependencies as the reference's Structure, Enumeration, TypeDefinition and GlobalVariable (structures, unions,
// enumerations and typedefs from the analysis's type table, globals from the record).
import type { Static } from '@sinclair/typebox';
import type { FunctionInfo } from '../contracts/index.js';
import {
  entryDependency,
  hexKey,
  memberMap,
  normaliseSpelling,
  type DataTypeEntry,
} from '../shared/data-type-spelling.js';
import type { FunctionTypesRecord, TypeDependencyRecord, TypedValue } from '../shared/type-records.js';

export type WireInfo = Static<typeof FunctionInfo>;
type WireDependency = WireInfo['func_deps'][number];
type WireTypes = NonNullable<WireInfo['func_types']>;

/** A function as its data types need it. */
export interface TypedFunction {
  id: number;
  vaddr: number;
  size: number;
  name: string;
}

export { tableEntry } from '../store/index.js';

export const isoTime = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The record under the function's current name: a rename after generation or an edit shows in it. */
export function named(r: FunctionTypesRecord, name: string): FunctionTypesRecord {
  return r.name === name ? r : { ...r, name, declaration: r.declaration.replace(`${r.name}(`, `${name}(`) };
}

/**
 * The wire's artifact names of dependencies: the schema names (the reference publishes no values for
 * `artifact_type` but `Function`'s default); a union is a Structure whose name says `union`.
 */
const ARTIFACT = { struct: 'Structure', union: 'Structure', enum: 'Enumeration', typedef: 'TypeDefinition' } as const;

function wireDependency(d: TypeDependencyRecord, last_change: string | null): WireDependency {
  switch (d.kind) {
    case 'global':
      return { last_change, addr: d.vaddr, name: d.name, type: d.type, size: d.size, artifact_type: 'GlobalVariable' };
    case 'typedef':
      return { last_change, name: d.name, type: d.type, artifact_type: ARTIFACT.typedef };
    case 'enum':
      return { last_change, name: d.name, members: { ...d.members }, artifact_type: ARTIFACT.enum };
    default: {
      const members = Object.fromEntries(
        Object.entries(memberMap(d.members)).map(([k, m]) => [k, { last_change, ...m }]),
      );
      const name = d.kind === 'union' ? `union ${d.name}` : d.name;
      return { last_change, name, size: d.size, members, artifact_type: ARTIFACT[d.kind] };
    }
  }
}

/**
 * FunctionInfoOutput of a served record: `types` are the type-table entries the function uses (those with a
 * declaration become its dependencies), `lastChange` when a person last changed it (null: as generated).
 */
export function toWire(r: FunctionTypesRecord, types: DataTypeEntry[], lastChange: number | null): WireInfo {
  const last_change = isoTime(lastChange);
  const value = (v: TypedValue) => ({ last_change, offset: v.offset, name: v.name, type: v.type, size: v.size });
  const declared = types.map(entryDependency).filter((d) => d !== null);
  return {
    func_types: {
      last_change,
      addr: r.vaddr,
      size: r.size,
      header: {
        last_change,
        name: r.name,
        addr: r.vaddr,
        type: r.returnType,
        args: Object.fromEntries(r.args.map((a) => [hexKey(a.offset), value(a)])),
      },
      stack_vars: Object.fromEntries(r.stackVars.map((v) => [hexKey(v.offset), { ...value(v), addr: r.vaddr }])),
      name: r.name,
      type: r.declaration,
      artifact_type: 'Function',
    },
    func_deps: [...declared, ...r.deps.filter((d) => d.kind === 'global')].map((d) => wireDependency(d, last_change)),
  };
}

const byOffset = <T extends { offset: number }>(values: T[]) => [...values].sort((a, b) => a.offset - b.offset);

/** A wire dependency as a record: by `artifact_type` when it names one, else by its fields. */
function recordDependency(d: WireDependency): TypeDependencyRecord {
  const artifact = (d.artifact_type ?? '').toLowerCase();
  if ('addr' in d)
    return { kind: 'global', name: d.name, type: normaliseSpelling(d.type), size: d.size, vaddr: d.addr };
  if ('members' in d) {
    const values = Object.values(d.members as Record<string, unknown>);
    const isEnum = artifact.startsWith('enum') || (!artifact && values.every((v) => typeof v === 'number'));
    if (isEnum)
      return { kind: 'enum', name: d.name.replace(/^enum /, ''), members: d.members as Record<string, number> };
    const members = byOffset(Object.values((d as { members: Record<string, TypedValue> }).members)).map((m) => ({
      name: m.name,
      type: normaliseSpelling(m.type),
      size: m.size,
      offset: m.offset,
    }));
    const union = d.name.startsWith('union ') || artifact === 'union';
    const name = d.name.replace(/^(struct|union) /, '');
    return { kind: union ? 'union' : 'struct', name, size: 'size' in d ? (d.size ?? null) : null, members };
  }
  return { kind: 'typedef', name: d.name, type: normaliseSpelling((d as { type: string }).type) };
}

/**
 * A PUT's FunctionInfoInput as the function's new record (source `user`). Addresses are the function's own
 * whatever the body says; the name is its current one (renaming has its own operation and history); `type`, the
 * declaration, is kept as sent. Without `func_types` the function's current prototype stays and only the
 * dependencies change; null when it has none to keep.
 */
export function fromWire(
  info: WireInfo,
  fn: TypedFunction,
  previous: FunctionTypesRecord | null,
): FunctionTypesRecord | null {
  const deps = info.func_deps.map(recordDependency);
  const t: WireTypes | null | undefined = info.func_types;
  if (!t) return previous && { ...previous, deps, source: 'user' };
  const value = (v: TypedValue) => ({ name: v.name, type: normaliseSpelling(v.type), size: v.size, offset: v.offset });
  const declaration = t.type.replace(/\s+/g, ' ').trim();
  return {
    vaddr: fn.vaddr,
    size: fn.size,
    name: fn.name,
    declaration,
    returnType: normaliseSpelling(t.header.type),
    args: byOffset(Object.values(t.header.args as Record<string, TypedValue>)).map(value),
    variadic: /\.\.\.\s*\)$/.test(declaration),
    convention: previous?.convention ?? 'unknown',
    stackVars: byOffset(Object.values((t.stack_vars ?? {}) as Record<string, TypedValue>)).map(value),
    deps,
    source: 'user',
  };
}
