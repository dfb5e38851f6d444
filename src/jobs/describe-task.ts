// Worker-thread entry: digests and entropy of a stored sample whose analysis has not produced them yet.
import { readFile } from 'node:fs/promises';
import type { FileHashes } from '../contracts/index.js';
import { hashBytes, shannonEntropy } from '../engine/index.js';

export default async function describeFile(path: string): Promise<{ hashes: FileHashes; entropy: number }> {
  const bytes = await readFile(path);
  return { hashes: hashBytes(bytes), entropy: shannonEntropy(bytes) };
}
