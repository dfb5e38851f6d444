// BCJ2 (method 0303011B), 7-Zip's four-stream x86 branch converter: the main stream holds the code with the
// operands of converted CALL (E8), JMP (E9) and Jcc (0F 80–8F) instructions taken out; those absolute
// targets sit big-endian in the call stream (E8) or the jump stream (the others), and a range-coded bit per
// branch opcode (an LZMA-style adaptive bit, 11-bit probabilities) says whether its operand was converted.
// Bits are modelled by the byte before an E8 (256 contexts), one context for E9 and one for Jcc.
import { DecodeError } from '../../compression/errors.js';

const TOP = 1 << 24;
const HALF = 1024;
const JCC = 0;
const JMP = 1;
const CALL = 2;

/** The converted code, `size` bytes, from the main, call, jump and range-coder streams. */
export function decodeBcj2(
  main: Uint8Array,
  call: Uint8Array,
  jump: Uint8Array,
  rc: Uint8Array,
  size: number,
): Uint8Array {
  // Each output byte comes from the main stream or from a call or jump stream's 4-byte operand.
  if (size > main.length + call.length + jump.length) throw new DecodeError('BCJ2 streams too short for its size');
  if (rc.length < 5 || rc[0] !== 0) throw new DecodeError('BCJ2 range coder stream malformed');
  let code = ((rc[1]! << 24) | (rc[2]! << 16) | (rc[3]! << 8) | rc[4]!) >>> 0;
  if (code === 0xffffffff) throw new DecodeError('BCJ2 range coder stream malformed');
  let range = 0xffffffff;
  let rcPos = 5;
  const probs = new Uint16Array(2 + 256).fill(HALF);
  const out = new Uint8Array(size);
  let mainPos = 0;
  let callPos = 0;
  let jumpPos = 0;
  let prev = 0;
  let pos = 0;
  while (pos < size) {
    if (mainPos >= main.length) throw truncated();
    const b = main[mainPos++]!;
    out[pos++] = b;
    if ((b & 0xfe) !== 0xe8 && !(prev === 0x0f && (b & 0xf0) === 0x80)) {
      prev = b;
      continue;
    }
    // A branch opcode that ends the output has no operand, and the encoder gave it no bit.
    if (pos === size) break;
    const p = b === 0xe8 ? CALL + prev : b === 0xe9 ? JMP : JCC;
    if (range >>> 0 < TOP) {
      if (rcPos >= rc.length) throw truncated();
      range = (range << 8) >>> 0;
      code = ((code << 8) | rc[rcPos++]!) >>> 0;
    }
    const prob = probs[p]!;
    const bound = (range >>> 11) * prob;
    if (code < bound) {
      range = bound;
      probs[p] = prob + ((2048 - prob) >>> 5);
      prev = b;
      continue;
    }
    range -= bound;
    code -= bound;
    probs[p] = prob - (prob >>> 5);
    let src: number;
    if (b === 0xe8) {
      if (callPos + 4 > call.length) throw truncated();
      src = (call[callPos]! << 24) | (call[callPos + 1]! << 16) | (call[callPos + 2]! << 8) | call[callPos + 3]!;
      callPos += 4;
    } else {
      if (jumpPos + 4 > jump.length) throw truncated();
      src = (jump[jumpPos]! << 24) | (jump[jumpPos + 1]! << 16) | (jump[jumpPos + 2]! << 8) | jump[jumpPos + 3]!;
      jumpPos += 4;
    }
    const dest = (src - (pos + 4)) | 0;
    for (let k = 0; k < 4 && pos < size; k++) out[pos++] = dest >>> (8 * k);
    prev = dest >>> 24;
  }
  return out;
}

const truncated = () => new DecodeError('BCJ2 stream truncated');
