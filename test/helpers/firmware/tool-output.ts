// What a Debian tool makes of some bytes, for the firmware readers' tests: the inputs written to files in a
// temporary directory, the tool run on them, its output file read back.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inTempDir } from './tools.js';

/** Runs `run(inputPaths, outputPath, dir)` on `inputs` written as files in0, in1 …; returns the output file. */
export function toolOutput(
  inputs: Uint8Array[],
  run: (inputPaths: string[], output: string, dir: string) => void,
): Uint8Array {
  return inTempDir((dir) => {
    const paths = inputs.map((data, i) => {
      writeFileSync(join(dir, `in${i}`), data);
      return join(dir, `in${i}`);
    });
    run(paths, join(dir, 'out'), dir);
    return new Uint8Array(readFileSync(join(dir, 'out')));
  });
}
