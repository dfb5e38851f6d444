// Composition root: the only place that builds drivers (database, blobs, worker pool) from the config
// and wires services, the HTTP app and the job runner together.
export * from './compose.js';
