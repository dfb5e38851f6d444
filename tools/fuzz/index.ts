// Fuzzing of the engine's parsers and pipeline (docs/decisions.md, "Fuzzing"): seeds, field-aware
// mutators, a worker-thread sandbox with heap and time limits, and runs that report findings. Development
// tooling, not part of the service: it may import the engine, its test fixtures and src/jobs/failures.ts
// (the one classification of permanent errors); nothing imports it.
export { runCampaign } from './campaign.js';
export type { CampaignOptions, CampaignReport, Finding } from './campaign.js';
export { mapFields } from './field-map.js';
export type { Field, FieldMap } from './field-map.js';
export { mutate } from './mutators.js';
export { Sandbox, classify } from './sandbox.js';
export { corpusSeeds, syntheticSeeds } from './seeds.js';
export type { Seed } from './seeds.js';
export { TARGETS, runTarget } from './targets.js';
export type { TargetName } from './targets.js';
