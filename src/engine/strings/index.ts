// Strings (ASCII, UTF-8, UTF-16LE) with their section, and the functions whose instructions reference
// them. May import src/contracts, src/shared, engine/formats and engine/cfg types.
export * from './extract.js';
export * from './references.js';
