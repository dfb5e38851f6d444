// Type recovery: the C type model, signatures recovered from code over the IR, and (with DWARF or a
// prototype database) declared types. May import src/contracts, src/shared, engine/formats, disasm, isa,
// cfg and ir.
import { functionBlocks, type FunctionGraph } from '../cfg/index.js';
import type { Decoders } from '../disasm/index.js';
import type { BinaryImage } from '../formats/image.js';
import { FunctionLifter } from '../ir/lift-function.js';
import type { FunctionRecord } from '../../shared/analysis-records.js';
import type { FunctionTypesRecord } from '../../shared/type-records.js';
import { declaredRecord, type Declared } from './declared-types.js';
import { readDwarfTypes, type DwarfTypes } from './dwarf/index.js';
import { recoveredRecord } from './function-types.js';
import { recoverSignatures, type RecoveredSignature } from './signatures.js';

export * from './ctype.js';
export type { ParamLocation, RecoveredParam, RecoveredSignature } from './signatures.js';

/** Every recovered function's signature, by function index (null where its CPU has no lifter yet). */
export function recoverFunctionSignatures(
  image: BinaryImage,
  graph: FunctionGraph,
  decoders: Decoders,
): (RecoveredSignature | null)[] {
  const lifter = new FunctionLifter(image, graph, decoders, image.identity.platform);
  return recoverSignatures(
    lifter,
    functionBlocks(graph),
    graph.functions.map((f) => f.start),
  );
}

/**
 * Every function's data types as the store keeps them, in the order of `functions` (the analysis's records):
 * DWARF's where the binary or its debug file has them, else recovered from the code.
 */
export function functionTypes(
  image: BinaryImage,
  graph: FunctionGraph,
  decoders: Decoders,
  functions: FunctionRecord[],
  debugImage: BinaryImage | null,
): FunctionTypesRecord[] {
  const word = image.identity.bits === 64 ? 8 : 4;
  const dwarf = readDwarfTypes(image) ?? (debugImage ? readDwarfTypes(debugImage) : null);
  const declared = dwarf ? dwarfDeclarations(dwarf, image.identity.architecture) : new Map<number, Declared>();
  // Recovery runs even beside full DWARF: it costs little next to recovery and keeps one path.
  const sigs = recoverFunctionSignatures(image, graph, decoders);
  const table = dwarf?.table ?? new Map();
  const out: FunctionTypesRecord[] = [];
  functions.forEach((f, i) => {
    const d = declared.get(f.vaddr);
    const sig = sigs[i];
    if (d) out.push(declaredRecord(f, d, table, word, sig?.convention ?? ''));
    else if (sig) out.push(recoveredRecord(f, sig, word));
  });
  return out;
}

/**
 * DWARF functions as declarations. Locals at `DW_OP_fbreg n` take the frame base to be the call frame
 * address (what GCC and Clang emit): on x86 the entry stack pointer plus the return address's word.
 */
function dwarfDeclarations(dwarf: DwarfTypes, arch: string): Map<number, Declared> {
  const cfa = arch === 'x86_64' ? 8 : arch === 'x86' ? 4 : 0;
  const out = new Map<number, Declared>();
  for (const f of dwarf.functions.values())
    out.set(f.address, {
      name: f.name,
      prototype: f.prototype,
      source: 'dwarf',
      locals: f.locals.flatMap((l) =>
        l.frameOffset === null ? [] : [{ name: l.name, type: l.type, offset: l.frameOffset + cfa }],
      ),
    });
  return out;
}
