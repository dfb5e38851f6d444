// bzip2 through seek-bzip (a pure-JavaScript port of micro-bunzip): an output stream that counts bytes
// bounds it, an input stream that counts them gives the stream's extent.
import Bunzip from 'seek-bzip';
import { BoundedOutput, DecodeError, OutputLimitError, type Decoded } from './errors.js';

/** One bzip2 stream ("BZh1"…"BZh9" to its end-of-stream marker and CRC). */
export function decodeBzip2(input: Uint8Array, maxOutput: number): Decoded {
  if (input.length < 14 || input[0] !== 0x42 || input[1] !== 0x5a || input[2] !== 0x68) {
    throw new DecodeError('not a bzip2 stream');
  }
  let pos = 0;
  const source = {
    readByte: () => (pos < input.length ? input[pos++]! : -1),
    read(buffer: Uint8Array, offset: number, length: number) {
      const n = Math.min(length, input.length - pos);
      if (n <= 0) return -1;
      buffer.set(input.subarray(pos, pos + n), offset);
      pos += n;
      return n;
    },
    eof: () => pos >= input.length,
  };
  const out = new BoundedOutput(maxOutput, input.length * 4);
  try {
    Bunzip.decode(source, { writeByte: (b: number) => out.push(b) }, false);
  } catch (err) {
    if (err instanceof OutputLimitError) throw err;
    throw new DecodeError(`bzip2: ${(err as Error).message}`);
  }
  return { data: out.bytes(), consumed: pos };
}
