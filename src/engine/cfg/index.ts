// Function recovery: seeds from the container (symbols, entry points, unwind tables), recursive descent
// with tail-call, switch-table and no-return handling, gap scanning last; results in flat arrays.
// May import src/contracts, src/shared, engine/formats and engine/disasm.
export { recoverFunctions, type RecoverOptions } from './recover.js';
export type { ClientFunction } from './seeds.js';
export * from './types.js';
export { CALL_NEXT, IN_DELAY_SLOT, type InsnTable } from './insn-columns.js';
export { findBlock, functionBlocks, type FunctionBlocks } from './function-blocks.js';
