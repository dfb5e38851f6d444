// Shared vocabulary of every layer: the coded error registry and the logger interface.
// Imports nothing from the project.
export * from './errors.js';
export * from './logger.js';
