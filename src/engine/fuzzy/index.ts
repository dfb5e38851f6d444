// Whole-file digests computed here rather than taken from a dependency: CRC-32, and the similarity
// (fuzzy) hashes TLSH and ssdeep that let two files be compared without their bytes. Pure computation
// over a Uint8Array, one pass each; the digests import nothing, not even node: modules (the tests' inputs,
// test/helpers/engine/fuzzy.ts, read the developer corpus).
export { crc32, crc32Byte, crc32Update, crc32Value } from './crc32.js';
export { ssdeepDigest } from './ssdeep.js';
export { tlshDigest } from './tlsh.js';
