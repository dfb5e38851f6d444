// Per-function features for similarity: instruction-class n-grams, CFG shape and graphlets, constants,
// referenced strings, called imports and call-graph neighbourhood, as group → key → count (plain JSON).
// Extraction only; vectors and distances live in engine/similarity. May import src/shared,
// src/contracts, engine/formats, engine/disasm, engine/cfg and engine/strings.
export * from './instruction-class.js';
export * from './function-features.js';
export * from './operand-constants.js';
export * from './binary-features.js';
