// Capability rules in capa's YAML format: parsing, compiling (order, index) and the pure matcher over
// extracted features. Reading rule files is the caller's (the engine does no I/O). May import src/shared
// and engine stages up to engine/features.
export * from './rule.js';
export * from './feature-key.js';
export * from './feature-set.js';
export * from './parse-rule.js';
export * from './rule-set.js';
export * from './match-rules.js';
export * from './operand-features.js';
export * from './instruction-features.js';
export * from './extract-features.js';
export * from './tags.js';
export * from './attack.js';
export * from './verdict.js';
