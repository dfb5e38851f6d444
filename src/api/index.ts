// HTTP layer: validates, authenticates and calls a service; no business logic here. Route schemas come
// from contracts/, the operations' words (summaries, descriptions, examples, groups) from docs/: together
// the single source of the published OpenAPI document. Never imports the engine, the store drivers or the
// job runner.
export * from './app.js';
