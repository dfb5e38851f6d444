// Type recovery: the C type model, signatures recovered from code over the IR, and (with DWARF or a
// prototype database) declared types. May import src/contracts, src/shared, engine/formats, disasm, isa,
// cfg and ir.
import { functionBlocks, type FunctionGraph } from '../cfg/index.js';
import type { Decoders } from '../disasm/index.js';
import type { BinaryImage } from '../formats/image.js';
import { FunctionLifter } from '../ir/lift-function.js';
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
