// Functions with code (DW_TAG_subprogram with DW_AT_low_pc or DW_AT_ranges) and unit-level variables
// with a static address. A concrete out-of-line instance of an inlined function, and a definition that
// completes a declaration, take what they lack (name, types, flags) from the DIEs they point to; the
// parameters are the declared ones, from the abstract instance, even where a GCC clone dropped some.
import type { CType, Prototype } from '../ctype.js';
import { address, block, constant, flag, has, string } from './attributes.js';
import { DwarfFormatError } from './byte-reader.js';
import { AT, TAG } from './constants.js';
import { tagOf, type Die } from './die.js';
import { frameOffset, staticAddress } from './expressions.js';
import { originChain, withAttribute } from './origins.js';
import { rangesOf } from './ranges.js';
import type { TypeBuilder } from './types.js';

export interface DwarfLocal {
  name: string;
  type: CType;
  /** From `DW_OP_fbreg n` when that is the whole location, else null (registers, location lists). */
  frameOffset: number | null;
}

export interface DwarfFunction {
  name: string;
  /** The entry: DW_AT_low_pc, or the first range of a function split into hot and cold parts. */
  address: number;
  /** Bytes of code over all its ranges. */
  size: number;
  prototype: Prototype;
  external: boolean;
  locals: DwarfLocal[];
}

export interface DwarfGlobal {
  address: number;
  name: string;
  type: CType;
}

/** Locals listed per function; more is damage (sqlite's largest function has ~100). */
const MAX_LOCALS = 10_000;

const hex = (n: number): string => `0x${n.toString(16)}`;

/** Addresses are numbers (BinaryImage keeps them below 2^53): a larger one is damage, not a place. */
function checkedAddress(a: number): number {
  if (!Number.isSafeInteger(a) || a < 0) throw new DwarfFormatError(`address ${a} is not below 2^53`);
  return a;
}

/** Entry and size of a subprogram's code, or null when it has none (declarations, abstract instances). */
export function codeRange(die: Die): { address: number; size: number } | null {
  if (has(die, AT.ranges)) {
    const ranges = rangesOf(die);
    const size = ranges.reduce((n, [s, e]) => n + e - s, 0);
    if (ranges.length > 0) return { address: checkedAddress(ranges[0]![0]), size: checkedAddress(size) };
  }
  const low = address(die, AT.low_pc);
  if (low === null) return null;
  // DWARF 4 made DW_AT_high_pc a length when its form is a constant; an address form is the end.
  const high = address(die, AT.high_pc);
  const size = high !== null ? high - low : (constant(die, AT.high_pc) ?? 0);
  return { address: checkedAddress(low), size: Number.isSafeInteger(size) && size > 0 ? size : 0 };
}

/** Where the declared parameters are: the abstract instance, else the DIE, else its declaration. */
function parameterSource(chain: Die[]): Die {
  let d = chain[0]!;
  for (const next of chain.slice(1)) {
    if (has(d, AT.abstract_origin)) d = next;
    else break;
  }
  if (hasParameters(d)) return d;
  return chain.slice(chain.indexOf(d) + 1).find(hasParameters) ?? d;
}

const hasParameters = (d: Die): boolean =>
  (d.children ?? []).some((c) => tagOf(c) === TAG.formal_parameter || tagOf(c) === TAG.unspecified_parameters);

export function readFunction(die: Die, b: TypeBuilder): DwarfFunction | null {
  const code = codeRange(die);
  if (!code) return null;
  const chain = originChain(die);
  const named = withAttribute(chain, AT.name);
  const typed = withAttribute(chain, AT.type);
  const returns = typed ? b.typeAttr(typed) : { kind: 'void' as const };
  return {
    name: (named && string(named, AT.name)) ?? `sub_${code.address.toString(16)}`,
    address: code.address,
    size: code.size,
    prototype: b.prototype(parameterSource(chain), returns),
    external: chain.some((d) => flag(d, AT.external)),
    locals: locals(die, b),
  };
}

/** Variables of the function's own scope and its lexical blocks, in order; not those of inlined calls. */
function locals(die: Die, b: TypeBuilder): DwarfLocal[] {
  const out: DwarfLocal[] = [];
  const visit = (scope: Die): void => {
    for (const c of scope.children ?? []) {
      if (out.length >= MAX_LOCALS) return;
      const tag = tagOf(c);
      if (tag === TAG.lexical_block) visit(c);
      else if (tag === TAG.variable && !flag(c, AT.declaration)) out.push(local(c, b));
    }
  };
  visit(die);
  if (out.length >= MAX_LOCALS) b.diagnostics.add(`function at DIE ${hex(die.offset)}: over ${MAX_LOCALS} locals`);
  return out;
}

function local(c: Die, b: TypeBuilder): DwarfLocal {
  const chain = originChain(c);
  const named = withAttribute(chain, AT.name);
  const typed = withAttribute(chain, AT.type);
  const expr = block(c, AT.location);
  return {
    name: (named && string(named, AT.name)) ?? '',
    type: typed ? b.typeAttr(typed) : { kind: 'void' },
    frameOffset: expr ? frameOffset(expr) : null,
  };
}

/** Scopes whose variables are globals: the unit itself and (C++) namespaces. */
export function isUnitLevel(die: Die): boolean {
  const parent = die.parent;
  if (!parent) return false;
  const tag = tagOf(parent);
  return tag === TAG.compile_unit || tag === TAG.partial_unit || tag === TAG.namespace;
}

/** A unit-level variable at a static address (DW_OP_addr); null for declarations, TLS, register values. */
export function readGlobal(die: Die, b: TypeBuilder): DwarfGlobal | null {
  const expr = block(die, AT.location);
  const at = expr ? staticAddress(expr, die.unit) : null;
  if (!at) return null;
  checkedAddress(at);
  const chain = originChain(die);
  const named = withAttribute(chain, AT.name);
  const typed = withAttribute(chain, AT.type);
  const name = named && string(named, AT.name);
  if (!name) return null;
  return { address: at, name, type: typed ? b.typeAttr(typed) : { kind: 'void' } };
}
