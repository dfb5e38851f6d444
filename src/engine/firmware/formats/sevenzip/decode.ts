// Decoding one folder: each coder's inputs are packed streams (slices of the archive) or the outputs of
// other coders, so the folder's output is pulled from its main coder down through the bind pairs. Every
// declared output size is checked against the budget before anything is decoded.
import { DecodeError, OutputLimitError } from '../../compression/errors.js';
import { AES_METHOD, runCoder, type CoderContext } from './coders.js';
import type { Folder, StreamsInfo } from './folders.js';

export const isEncrypted = (f: Folder): boolean => f.coders.some((c) => c.method === AES_METHOD);

/** The output of folder `index`; `archive` starts at the signature header, where the packs' offsets count. */
export function decodeFolder(
  archive: Uint8Array,
  streams: StreamsInfo,
  index: number,
  budget: number,
  ctx: CoderContext,
): Uint8Array {
  const f = streams.folders[index]!;
  for (const size of f.sizes) if (size > budget) throw new OutputLimitError(budget);
  const firstInput: number[] = [];
  let inputs = 0;
  for (const c of f.coders) {
    firstInput.push(inputs);
    inputs += c.inputs;
  }
  const started = new Uint8Array(f.coders.length);
  // Each output feeds one input, so each coder runs once and its output is dropped once used (a chain holds
  // two buffers at a time, not one per coder). Depth is at most the number of coders; `started` stops a
  // cycle of bind pairs.
  const produce = (j: number): Uint8Array => {
    if (started[j]) throw new DecodeError('7z folder coders feed each other in a cycle');
    started[j] = 1;
    const coder = f.coders[j]!;
    const streamsIn: Uint8Array[] = [];
    for (let k = 0; k < coder.inputs; k++) {
      const input = firstInput[j]! + k;
      const from = f.boundTo[input]!;
      if (from >= 0) streamsIn.push(produce(from));
      else {
        const pack = streams.packs[f.firstPack + f.packed.indexOf(input)]!;
        streamsIn.push(archive.subarray(pack.start, pack.end));
      }
    }
    return runCoder(coder.method, streamsIn, coder.props, f.sizes[j]!, ctx);
  };
  return produce(f.main);
}
