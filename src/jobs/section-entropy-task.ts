// Worker-thread entry: the entropy of each section of a stored sample, for the PDF report's entropy chart.
// Only the sections' bytes are read, one section at a time, so a large sample is never wholly in memory.
import { open } from 'node:fs/promises';
import type { SectionEntropyRequest } from '../contracts/index.js';
import { shannonEntropy } from '../engine/index.js';

export default async function sectionEntropy(req: SectionEntropyRequest): Promise<number[]> {
  const file = await open(req.path, 'r');
  try {
    const out: number[] = [];
    for (const { offset, size } of req.ranges) {
      const bytes = Buffer.alloc(size);
      const { bytesRead } = await file.read(bytes, 0, size, offset);
      out.push(shannonEntropy(bytes.subarray(0, bytesRead)));
    }
    return out;
  } finally {
    await file.close();
  }
}
