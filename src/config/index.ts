// Environment → validated configuration. Imports shared/ only.
export * from './config.js';
