// Function vectors (feature hashing of engine/features output), cosine similarity and the confidence a
// similarity carries. Math only: the nearest-neighbour index lives in store/. May import src/shared,
// src/contracts and engine stages up to engine/features.
export * from './feature-hash.js';
export * from './weights.js';
export * from './function-vector.js';
export * from './distance.js';
export * from './confidence.js';
export * from './pool-confidence.js';
export * from './canonical-name.js';
export * from './function-naming.js';
