// Declared prototypes (DWARF, or the library prototype database) → the records the store keeps: the
// declaration with its parameter names, argument sizes, stack variables at their frame offsets, and the
// structures, unions, enums and typedefs the prototype reaches (members followed, bounded).
import type { FunctionRecord } from '../../shared/analysis-records.js';
import type { FunctionTypesRecord, TypeDependencyRecord, TypeSource } from '../../shared/type-records.js';
import { formatPrototype, formatType, sizeOf, tableKey, type CType, type Prototype, type TypeTable } from './ctype.js';

/** Definitions a record lists at most: a prototype reaching half a program's types lists the nearest. */
const MAX_DEPENDENCIES = 64;

export interface Declared {
  name: string;
  prototype: Prototype;
  source: TypeSource;
  /** Locals with their offset from the stack pointer on entry. */
  locals: { name: string; type: CType; offset: number }[];
}

/** `convention`: the one the function's code was read with (a declaration does not say). */
export function declaredRecord(
  f: FunctionRecord,
  d: Declared,
  table: TypeTable,
  word: 4 | 8,
  convention: string,
): FunctionTypesRecord {
  const size = (t: CType) => sizeOf(t, table) ?? word;
  const p = d.prototype;
  return {
    vaddr: f.vaddr,
    size: f.size,
    name: d.name,
    declaration: formatPrototype(d.name, p),
    returnType: formatType(p.returns),
    args: p.params.map((x, i) => ({
      name: x.name || `a${i + 1}`,
      type: formatType(x.type),
      size: size(x.type),
      offset: i,
    })),
    variadic: p.variadic,
    convention,
    stackVars: d.locals.map((l) => ({ name: l.name, type: formatType(l.type), size: size(l.type), offset: l.offset })),
    deps: dependencies([p.returns, ...p.params.map((x) => x.type), ...d.locals.map((l) => l.type)], table),
    source: d.source,
  };
}

/** The definitions `roots` reach through pointers, arrays, typedefs, qualifiers and members. */
export function dependencies(roots: CType[], table: TypeTable): TypeDependencyRecord[] {
  const out: TypeDependencyRecord[] = [];
  const seen = new Set<string>();
  const work = [...roots];
  for (let steps = 0; work.length && out.length < MAX_DEPENDENCIES && steps < 10_000; steps++) {
    const t = work.pop()!;
    switch (t.kind) {
      case 'pointer':
      case 'const':
      case 'volatile':
        work.push(t.to);
        break;
      case 'array':
        work.push(t.of);
        break;
      case 'function':
        work.push(t.proto.returns, ...t.proto.params.map((p) => p.type));
        break;
      case 'typedef':
        if (!seen.has(`typedef ${t.name}`)) {
          seen.add(`typedef ${t.name}`);
          out.push({ kind: 'typedef', name: t.name, type: formatType(t.to) });
          work.push(t.to);
        }
        break;
      case 'struct':
      case 'union':
      case 'enum': {
        const key = tableKey(t);
        if (seen.has(key)) break;
        seen.add(key);
        const def = table.get(key);
        if (!def) break;
        if (def.kind === 'enum')
          out.push({
            kind: 'enum',
            name: key,
            members: Object.fromEntries(def.enumerators.map((e) => [e.name, e.value])),
          });
        else {
          out.push({
            kind: def.kind,
            name: key,
            size: def.size,
            members: def.members.map((m) => ({
              name: m.name,
              type: formatType(m.type),
              size: sizeOf(m.type, table) ?? 0,
              offset: m.offset,
            })),
          });
          for (const m of def.members) work.push(m.type);
        }
        break;
      }
      default:
        break;
    }
  }
  return out;
}
