// Who a call reaches: a function of the binary (by index) or a library function whose prototype the
// database knows, through its PLT stub, import thunk or import slot (`call [__imp_X]`). Signature recovery
// reads callees through this one view, so evidence from library prototypes and from recovered functions
// flows the same way.
import type { Expr } from '../ir/ir.js';
import type { CallingConvention } from '../ir/lifter.js';
import { coarseClass, sizeOf, type CoarseClass, type CType, type TypeTable } from './ctype.js';
import type { KnownPrototype } from './prototypes/index.js';

export interface ParamType {
  cls: CoarseClass;
  width: number;
  /** The declared type, where a library prototype gives one (`const char *` for strlen's argument). */
  declared?: CType;
}

/** A library function as signature recovery sees it, in the caller's convention. */
export interface LibraryCallee {
  name: string;
  /**
   * Parameters by position in the integer and in the vector argument registers (Microsoft x64 numbers
   * both by argument, so each has holes where the other kind sits), and stack slots (i386).
   */
  ints: (ParamType | undefined)[];
  floats: (ParamType | undefined)[];
  /** By stack slot: the parameter starting there (a wider one leaves the next slots empty). */
  stack: (ParamType | undefined)[];
  variadic: boolean;
  returns: ParamType;
}

export type Callee = { kind: 'function'; index: number } | { kind: 'library'; callee: LibraryCallee };

/**
 * A library function takes the argument in register `pos` of `kind`: a declared parameter, or any integer
 * one past them when it is variadic (unnamed floating-point arguments travel in integer registers too on
 * Microsoft x64, and gcc's varargs read the vector ones only with al set, which callers do).
 */
export function libraryTakes(c: LibraryCallee, kind: 'int' | 'float' | 'stack', pos: number): boolean {
  if (kind === 'stack') return pos < c.stack.length || c.variadic;
  const list = kind === 'int' ? c.ints : c.floats;
  return list[pos] !== undefined || (kind === 'int' && c.variadic && pos >= list.length);
}

/** The address a call or jump goes to: a constant, or the import slot it reads its target from. */
export function targetAddress(target: Expr, addressSize: number): number | null {
  const t = target.k === 'load' && target.addr.k === 'const' ? target.addr : target;
  return t.k === 'const' ? Number(BigInt.asUintN(addressSize * 8, t.v)) : null;
}

export class Callees {
  private readonly indexOf: Map<number, number>;
  private readonly library = new Map<number, LibraryCallee | null>();

  constructor(
    starts: number[],
    private readonly importAt: Map<number, string>,
    private readonly find: (name: string) => KnownPrototype | null,
    private readonly types: TypeTable,
  ) {
    this.indexOf = new Map(starts.map((s, i) => [s, i]));
  }

  /** The callee at `address` in a caller of convention `conv`. */
  at(address: number | null, conv: CallingConvention, word: number): Callee | null {
    if (address === null) return null;
    const index = this.indexOf.get(address);
    // A recovered import stub is a function of the binary too: its prototype is the library's.
    const lib = this.libraryAt(address, conv, word);
    if (lib) return { kind: 'library', callee: lib };
    return index === undefined ? null : { kind: 'function', index };
  }

  private libraryAt(address: number, conv: CallingConvention, word: number): LibraryCallee | null {
    let lib = this.library.get(address);
    if (lib === undefined) {
      const name = this.importAt.get(address);
      const known = name === undefined ? null : this.find(name);
      lib = known ? this.calleeOf(known, conv, word) : null;
      this.library.set(address, lib);
    }
    return lib;
  }

  private calleeOf(known: KnownPrototype, conv: CallingConvention, word: number): LibraryCallee {
    const typed = known.prototype.params.map((p) => this.paramType(p.type, word));
    const isFloat = (t: ParamType) => t.cls === 'float32' || t.cls === 'float64';
    const out: LibraryCallee = {
      name: known.name,
      ints: [],
      floats: [],
      stack: [],
      variadic: known.prototype.variadic,
      returns: this.paramType(known.prototype.returns, word),
    };
    if (conv.stackSlot === 4)
      for (const t of typed) {
        out.stack.push(t);
        for (let k = 1; k < Math.ceil(t.width / 4); k++) out.stack.push(undefined);
      }
    else if (conv.positional) {
      // Microsoft x64: the n-th argument is in the n-th register of its kind.
      out.ints = typed.map((t) => (isFloat(t) ? undefined : t));
      out.floats = typed.map((t) => (isFloat(t) ? t : undefined));
    } else {
      out.ints = typed.filter((t) => !isFloat(t));
      out.floats = typed.filter(isFloat);
    }
    return out;
  }

  private paramType(t: CType, word: number): ParamType {
    const cls = coarseClass(t);
    return { cls: cls === 'array' ? 'pointer' : cls, width: sizeOf(t, this.types) ?? word, declared: t };
  }
}
