// Disassembly: one Decoder interface (instruction.ts), one backend per architecture family.
// - x86, x86-64: iced-x86 (WebAssembly).
// - AArch64, ARM (A32), Thumb/Thumb-2: table-driven TypeScript for the fields the CFG needs, Capstone
//   (capstone-wasm) for text; CapstoneDecoder, the detail-based reference, is exported for validation.
// - MIPS32 (both byte orders): TypeScript, decoder and text (capstone-wasm has no MIPS).
// Pure: no I/O (the WebAssembly modules load through their packages). May import src/shared,
// src/contracts and engine/formats.
import { decodeArm } from './arm-decoder.js';
import { decodeArm64 } from './arm64-decoder.js';
import { fits } from './bits.js';
import { CapstoneDecoder } from './capstone-decoder.js';
import { CapstoneHandle, loadCapstoneModule, type CapstoneMode } from './capstone-runtime.js';
import { DecoderError } from './errors.js';
import type { Decoder, DecoderMode } from './instruction.js';
import { decodeMips, mipsWord } from './mips-decoder.js';
import { formatMips } from './mips-text.js';
import { ThumbDecoder } from './thumb-decoder.js';
import { X86Decoder, loadIced } from './x86-decoder.js';

export { Flow, NO_REG, clearDecoded, decoderOf, newDecoded } from './instruction.js';
export type { Decoded, Decoder, DecoderMode, Decoders, InstructionText } from './instruction.js';
export { DecoderError } from './errors.js';
export type { DecoderErrorReason } from './errors.js';
export { newPairState, pairRef, pinRegister, resetPairState } from './pair-ref.js';
export type { PairState } from './pair-ref.js';
export { decodeArm } from './arm-decoder.js';
export { decodeArm64 } from './arm64-decoder.js';
export { decodeMips } from './mips-decoder.js';
export { formatMips } from './mips-text.js';
export { ThumbDecoder, decodeThumb } from './thumb-decoder.js';
export { CapstoneDecoder } from './capstone-decoder.js';
export { X86Decoder } from './x86-decoder.js';

/**
 * x86 decoders hold a copy of the last region in WebAssembly memory that iced-x86 frees only on request,
 * so there is one per mode per thread, shared (decode calls are synchronous; sharing costs at most a
 * re-copy when two analyses alternate). Capstone text handles are shared the same way.
 */
const x86Decoders = new Map<DecoderMode, Promise<X86Decoder>>();
const textHandles = new Map<CapstoneMode, Promise<CapstoneHandle>>();

function capstoneText(mode: CapstoneMode): Promise<CapstoneHandle> {
  let handle = textHandles.get(mode);
  if (!handle) {
    handle = loadCapstoneModule().then((m) => new CapstoneHandle(m, mode, false));
    handle.catch(() => textHandles.delete(mode));
    textHandles.set(mode, handle);
  }
  return handle;
}

/** The engine's decoder for `mode`; loads the WebAssembly it needs once per thread. */
export async function createDecoder(mode: DecoderMode): Promise<Decoder> {
  switch (mode) {
    case 'x86':
    case 'x86_64': {
      let d = x86Decoders.get(mode);
      if (!d) {
        d = loadIced().then((iced) => new X86Decoder(iced, mode === 'x86' ? 32 : 64));
        d.catch(() => x86Decoders.delete(mode));
        x86Decoders.set(mode, d);
      }
      return d.catch((e: unknown) => {
        throw new DecoderError('backend-unavailable', `iced-x86: ${String(e)}`);
      });
    }
    case 'arm64': {
      const cs = await capstoneText(mode);
      return { mode, decode: decodeArm64, text: (b, o, v) => cs.text(b, o, v) };
    }
    case 'arm': {
      const cs = await capstoneText(mode);
      return { mode, decode: decodeArm, text: (b, o, v) => cs.text(b, o, v) };
    }
    case 'thumb': {
      const cs = await capstoneText(mode);
      return new ThumbDecoder((b, o, v) => cs.text(b, o, v));
    }
    case 'mips':
    case 'mipsel': {
      const big = mode === 'mips';
      return {
        mode,
        decode: (b, o, v, out) => decodeMips(b, o, v, big, out),
        text: (b, o, v) => (fits(b, o, 4) ? formatMips(mipsWord(b, o, big), v) : null),
      };
    }
    default:
      throw new DecoderError('unsupported-mode', `no decoder for mode ${String(mode)}`);
  }
}

/** Capstone's detail-based decoder (reference and benchmark baseline; ~100× slower than createDecoder's). */
export async function createCapstoneDecoder(mode: CapstoneMode): Promise<CapstoneDecoder> {
  return new CapstoneDecoder(await loadCapstoneModule(), mode);
}
