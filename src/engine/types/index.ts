// Type recovery: the C type model, signatures recovered from code over the IR, and (with DWARF or a
// prototype database) declared types. May import src/contracts, src/shared, engine/formats, disasm, isa,
// cfg and ir.
import { functionBlocks, type FunctionGraph } from '../cfg/index.js';
import type { Decoders } from '../disasm/index.js';
import type { BinaryImage } from '../formats/image.js';
import { FunctionLifter } from '../ir/lift-function.js';
import type { FunctionRecord } from '../../shared/analysis-records.js';
import type { FunctionTypesRecord } from '../../shared/type-records.js';
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

/** Every function's data types as the store keeps them, in the order of `functions` (the analysis's records). */
export function functionTypes(
  image: BinaryImage,
  graph: FunctionGraph,
  decoders: Decoders,
  functions: FunctionRecord[],
): FunctionTypesRecord[] {
  const sigs = recoverFunctionSignatures(image, graph, decoders);
  const word = image.identity.bits === 64 ? 8 : 4;
  const out: FunctionTypesRecord[] = [];
  functions.forEach((f, i) => {
    const sig = sigs[i];
    if (sig) out.push(recoveredRecord(f, sig, word));
  });
  return out;
}
