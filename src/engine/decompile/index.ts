// The decompiler: functions of a recovered binary → one C translation unit that defines them and whatever
// they call in the binary, with the data they read copied in. Pure engine code: the caller gives the image,
// its recovered graph and decoders (recover-binary.ts). May import src/contracts, src/shared and the
// engine's formats, disasm, isa, cfg, ir and types.
import { functionBlocks, type FunctionGraph } from '../cfg/index.js';
import type { Decoders } from '../disasm/index.js';
import type { BinaryImage } from '../formats/image.js';
import { dataFlow } from '../ir/dataflow.js';
import { FunctionLifter } from '../ir/lift-function.js';
import { toSsa } from '../ir/ssa.js';
import { libraryFor, recoverFunctionSignatures, recoveredRecord, type RecoveredSignature } from '../types/index.js';
import type { FunctionTypesRecord } from '../../shared/type-records.js';
import { Unsupported } from './c-names.js';
import { declaration, functionC } from './function-c.js';
import { classType, variables, type PrototypeC } from './function-context.js';
import type { FunctionTyping, ShapeC, ValueC } from './typing.js';
import { Program, type DecompiledSymbol } from './program.js';

export type { DecompiledSymbol } from './program.js';
export { placeholderForm, type FunctionMappingFull, type PlaceholderForm } from './placeholders.js';
export { functionSummary, type FunctionFacts } from './summary.js';

export interface DecompiledFunction {
  address: number;
  name: string;
  /** Its C definition, or null with `error` saying what it uses that the output cannot express yet. */
  text: string | null;
  /**
   * For each line of `text`, the addresses of the instructions whose effects it states, ascending: none for
   * braces, declarations and set-up, all those an expression folds together for its line. Empty without a text.
   */
  lines: number[][];
  error?: string;
  /** What its text refers to outside itself: itself, its callees, library functions, data, strings. */
  symbols: DecompiledSymbol[];
  /** The C types (and widths in bytes) its definition declares it to return and take; null without a text. */
  prototype: DecompiledPrototype | null;
  /** Its flow has a cycle entered in more than one place: the one kind its text writes with gotos. */
  irreducible: boolean;
  /** Milliseconds its lifting, data flow and translation took. */
  ms: number;
}

export interface DecompiledPrototype {
  returns: { type: string; size: number };
  params: { type: string; size: number }[];
}

export interface Decompilation {
  /** The whole translation unit: headers, helpers, data, declarations and definitions. */
  source: string;
  functions: DecompiledFunction[];
}

const HEADERS = ['stdint.h', 'stdbool.h', 'stddef.h', 'string.h', 'stdlib.h', 'stdio.h', 'math.h', 'ctype.h'];

/**
 * Decompiles the functions with indices `roots` (and every function of the binary they reach); `names`,
 * by function index, are the names the analysis gave them (symbols otherwise, else sub_<address>);
 * `types`, by start address, their data types (DWARF's, a library's, the user's), else recovered ones;
 * `given`: the recovered signatures, when the caller has them already.
 */
export function decompile(
  image: BinaryImage,
  graph: FunctionGraph,
  decoders: Decoders,
  roots: number[],
  names?: readonly string[],
  types?: ReadonlyMap<number, FunctionTypesRecord>,
  given?: (RecoveredSignature | null)[],
): Decompilation {
  const library = libraryFor(image);
  const signatures = given ?? recoverFunctionSignatures(image, graph, decoders, library);
  const word = image.identity.bits === 64 ? 8 : 4;
  const lifter = new FunctionLifter(image, graph, decoders, image.identity.platform);
  const layouts = functionBlocks(graph);
  const program = new Program(image, graph, signatures, library, names);
  const typings = new Map<number, FunctionTyping>();
  /** Function `fi`'s typing, once its registers' names are known (the first time it is translated). */
  const typingOf = (fi: number, registers: ReadonlySet<string>): FunctionTyping => {
    let t = typings.get(fi);
    if (t) return t;
    const f = graph.functions[fi]!;
    const sig = signatures[fi]!;
    const record =
      types?.get(f.start) ??
      recoveredRecord(
        { vaddr: f.start, size: f.end - f.start, name: program.nameOf(fi) },
        sig,
        word,
        (i) => graph.functions[i]!.start,
      );
    t = program.typings.of(record, { params: sig.params.map(shapeOf), returns: shapeOf(sig.returns) }, registers);
    typings.set(fi, t);
    return t;
  };
  for (const fi of roots) program.need(fi);
  const done: DecompiledFunction[] = [];
  let data = '';
  for (let round = 0; round < 2 || done.length < program.queue.length; round++) {
    while (done.length < program.queue.length) {
      const fi = program.queue[done.length]!;
      done.push(translate(fi));
    }
    // Data patches may name functions not yet defined: translate those and write the data again.
    data = program.dataText();
    if (done.length === program.queue.length && round >= 1) break;
  }
  // Declared ahead of the data (whose patches take their addresses) and of each other's calls; one that
  // could not be decompiled is declared too, so the rest compiles and only linking names what is missing.
  const declarations = done.flatMap((f) => {
    const sig = signatures[program.functionAt(f.address)];
    try {
      return sig ? [`${declaration(f.name, sig, typings.get(program.functionAt(f.address)) ?? null)};`] : [];
    } catch (err) {
      if (err instanceof Unsupported) return [];
      throw err;
    }
  });
  const source = [
    ...HEADERS.map((h) => `#include <${h}>`),
    program.runtime.text(),
    ...program.typings.definitions(),
    ...declarations,
    data,
    ...done.map((f) => f.text ?? `/* ${f.name}: ${f.error} */`),
  ].join('\n\n');
  return { source: `${source}\n`, functions: done };

  function translate(fi: number): DecompiledFunction {
    const t0 = performance.now();
    const f = graph.functions[fi]!;
    const name = program.nameOf(fi);
    const done = (
      text: string | null,
      lines: number[][] = [],
      error?: string,
      symbols: DecompiledSymbol[] = [],
      prototype: DecompiledPrototype | null = null,
      irreducible = false,
    ): DecompiledFunction => ({
      address: f.start,
      name,
      text,
      lines,
      ...(error === undefined ? {} : { error }),
      symbols,
      prototype,
      irreducible,
      ms: performance.now() - t0,
    });
    const sig = signatures[fi];
    const abi = lifter.abiOf(fi);
    // A 16-byte value passed by value is the output's 16-byte struct.
    if (sig?.params.some((p) => p.cls === 'int128')) program.runtime.use('v128');
    const fn = lifter.lift(fi, layouts[fi]!);
    if (!sig || !abi || !fn) return done(null, [], 'no lifter for its CPU');
    try {
      const typing = typingOf(fi, variables(fn));
      const c = program.referencesOf(() => functionC(dataFlow(toSsa(fn)), program, abi.convention, name, sig, typing));
      const self: DecompiledSymbol = { name, kind: 'function', address: f.start };
      // The types its definition declares: the data types' where they fit the code, else the classes'.
      const spelled = (x: { cls: Parameters<typeof classType>[0]; width: number }, typed?: ValueC | null) => ({
        type: typed?.spelled ?? classType(x.cls, x.width),
        size: x.cls === 'void' ? 0 : x.width,
      });
      const prototype = {
        returns: spelled(sig.returns, typing.returns),
        params: sig.params.map((p, i) => spelled(p, typing.params[i]!.type)),
      };
      return done(
        c.value.text,
        c.value.lines,
        undefined,
        [self, ...c.symbols.filter((s) => s.kind !== 'function' || s.name !== name)],
        prototype,
        c.value.irreducible,
      );
    } catch (err) {
      // A defect met on one function costs that function, not the binary's other decompilations.
      if (!(err instanceof Unsupported))
        return done(null, [], `the decompiler failed on it: ${(err as Error).message}`);
      return done(null, [], err.message);
    }
  }
}

/** What a class passes in a position, for matching declared types against the code's. */
function shapeOf(x: PrototypeC['returns']): ShapeC | null {
  if (x.cls === 'pointer' || x.cls === 'array' || x.cls === 'function') return { size: x.width, kind: 'pointer' };
  if (x.cls === 'float32' || x.cls === 'float64') return { size: x.width, kind: 'float' };
  return /^int(8|16|32|64)$/.test(x.cls) ? { size: x.width, kind: 'int' } : null;
}
