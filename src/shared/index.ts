// Shared vocabulary of every layer: the coded error registry, the logger interface and the limits of an
// analysis. Imports nothing from the project.
export * from './errors.js';
export * from './logger.js';
export * from './analysis-limits.js';
