// Shared vocabulary of every layer: the coded error registry, the logger interface, the limits of an
// analysis, the records of what it found and the settings of the optional language model. Imports nothing
// from the project.
export * from './errors.js';
export * from './logger.js';
export * from './analysis-limits.js';
export * from './firmware-limits.js';
export * from './analysis-records.js';
export * from './llm-settings.js';
