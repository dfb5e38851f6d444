// Content-addressed sample storage behind one interface; the filesystem driver is the embedded default.
// Imports shared/ only.
export * from './blob-store.js';
export * from './fs-blob-store.js';
