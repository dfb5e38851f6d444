// Recovered signatures and frames → the records the store keeps and the API serves: C types from the
// coarse classes (a pointer of unknown target is `void *`, one whose fields were seen points to a structure
// of them), arguments named a1…aN in order, stack variables var_<offset>, each declaration in standard C.
import type { FunctionRecord } from '../../shared/analysis-records.js';
import type { FunctionTypesRecord, TypeDependencyRecord, TypedValue } from '../../shared/type-records.js';
import {
  formatPrototype,
  formatType,
  intType,
  pointerTo,
  VOID,
  type CoarseClass,
  type CType,
  type Prototype,
} from './ctype.js';
import type { RecoveredSignature } from './recovered-signature.js';

/** The C type a coarse class stands for, on a target with `word`-byte pointers. */
function typeOfClass(cls: CoarseClass, word: 4 | 8): CType {
  switch (cls) {
    case 'int8':
    case 'int16':
    case 'int32':
    case 'int64':
    case 'int128':
      return intType((Number(cls.slice(3)) / 8) as 1 | 2 | 4 | 8 | 16);
    case 'pointer':
    case 'array':
    case 'function':
      return pointerTo(VOID, word);
    case 'float32':
      return { kind: 'float', size: 4 };
    case 'float64':
      return { kind: 'float', size: 8 };
    case 'longdouble':
      return { kind: 'float', size: 10 };
    case 'void':
      return VOID;
    default:
      return intType(word);
  }
}

function prototypeOf(sig: RecoveredSignature, word: 4 | 8): Prototype {
  return {
    returns: sig.returns.declared ?? typeOfClass(sig.returns.cls, word),
    params: sig.params.map((p, i) => ({ name: `a${i + 1}`, type: typeOfClass(p.cls, word) })),
    variadic: sig.variadic,
  };
}

/**
 * A pointer argument's structure, from the fields the code accesses through it: `struct s_<function>_<n>`
 * after the first function's argument that points to it, with `f_<offset>` members of the width accessed.
 */
function recoveredStructure(
  owner: { address: number; param: number },
  fields: { offset: number; size: number }[],
): TypeDependencyRecord {
  return {
    kind: 'struct',
    name: `struct s_${owner.address.toString(16)}_${owner.param + 1}`,
    size: null,
    members: fields.map((f) => ({
      name: `f_${f.offset.toString(16)}`,
      type: formatType(intType(sizeClass(f.size))),
      size: f.size,
      offset: f.offset,
    })),
  };
}

/**
 * The record of one function whose prototype was recovered from its code; `addressOf` gives the address of
 * a function by index (structures are named after the first function pointing to them).
 */
export function recoveredRecord(
  f: Pick<FunctionRecord, 'vaddr' | 'size' | 'name'>,
  sig: RecoveredSignature,
  word: 4 | 8,
  addressOf: (fn: number) => number,
): FunctionTypesRecord {
  const proto = prototypeOf(sig, word);
  const deps: TypeDependencyRecord[] = [];
  sig.params.forEach((p, i) => {
    if (p.declared) {
      proto.params[i]!.type = p.declared;
      return;
    }
    if (!p.fields?.length) return;
    // Only its first bytes read or written: a pointer to one value (`char *`, `int32_t *`), not a structure.
    if (p.fields.length === 1 && p.fields[0]!.offset === 0) {
      proto.params[i]!.type = pointerTo(intType(sizeClass(p.fields[0]!.size)), word);
      return;
    }
    const owner = p.structure ? { address: addressOf(p.structure.fn), param: p.structure.param } : null;
    const struct = recoveredStructure(owner ?? { address: f.vaddr, param: i }, p.fields);
    deps.push(struct);
    proto.params[i]!.type = pointerTo({ kind: 'struct', tag: struct.name.slice('struct '.length) }, word);
  });
  const args: TypedValue[] = proto.params.map((p, i) => ({
    name: p.name,
    type: formatType(p.type),
    size: sig.params[i]!.width,
    offset: i,
  }));
  const stackVars: TypedValue[] = sig.frame.map((v) => ({
    name: `var_${(-v.offset).toString(16)}`,
    type: formatType(v.declared ?? intType(sizeClass(v.size))),
    size: v.size,
    offset: v.offset,
  }));
  return {
    vaddr: f.vaddr,
    size: f.size,
    name: f.name,
    declaration: formatPrototype(f.name, proto),
    returnType: formatType(proto.returns),
    args,
    variadic: proto.variadic,
    convention: sig.convention,
    stackVars,
    deps,
    source: 'recovered',
  };
}

/** An access width as an integer size (a 16-byte vector spill is two words of nothing in particular). */
const sizeClass = (n: number): 1 | 2 | 4 | 8 | 16 => (n <= 1 ? 1 : n <= 2 ? 2 : n <= 4 ? 4 : n <= 8 ? 8 : 16);
