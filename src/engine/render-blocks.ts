// Assembly text of a recovered function's blocks, rendered on request from the sample's bytes: the result
// document keeps block boundaries, not text (text is ~30 bytes an instruction, ten times the boundaries).
import type { Decoder } from './disasm/index.js';
import { decoderOf, newDecoded } from './disasm/index.js';
import { fileOffsetOf } from './formats/image.js';
import { parseBinary } from './formats/parse.js';
import { loadPlan, type AnalyzeOptions } from './pipeline.js';
import { decodersFor } from './recover-binary.js';

export interface RenderBlocksRequest {
  options: Pick<AnalyzeOptions, 'binaryConfig' | 'symbols'>;
  /** ARM: the function is Thumb code. */
  thumb: boolean;
  blocks: { start: number; end: number }[];
  /** Names of call/jump targets (functions, imports), appended to the lines that reach them. */
  names?: Record<number, string>;
}

/**
 * Lines of text per instruction, so one request stays bounded whatever the stored boundaries say (the
 * largest function of libcrypto has ~9 000 instructions).
 */
export const MAX_RENDERED_INSTRUCTIONS = 100_000;

/** One array of lines (`0x<addr>: <mnemonic> <operands>[ ; <target name>]`) per requested block. */
export async function renderBlocks(bytes: Uint8Array, req: RenderBlocksRequest): Promise<string[][]> {
  const image = parseBinary(bytes, loadPlan(bytes, req.options).raw);
  const decoders = await decodersFor(image);
  const decoder = decoderOf(decoders, req.thumb);
  let budget = MAX_RENDERED_INSTRUCTIONS;
  return req.blocks.map((b) => {
    const lines = renderRange(image.bytes, (v) => fileOffsetOf(image, v), decoder, b, req.names ?? {}, budget);
    budget -= lines.length;
    return lines;
  });
}

function renderRange(
  bytes: Uint8Array,
  offsetOf: (vaddr: number) => number,
  decoder: Decoder,
  block: { start: number; end: number },
  names: Record<number, string>,
  budget: number,
): string[] {
  const lines: string[] = [];
  const d = newDecoded();
  for (let v = block.start; v < block.end && lines.length < budget;) {
    const off = offsetOf(v);
    const text = off < 0 ? null : decoder.text(bytes, off, v);
    if (off < 0 || !decoder.decode(bytes, off, v, d) || !text) {
      lines.push(`0x${v.toString(16)}: (bad)`);
      break;
    }
    // Calls through an import slot (x86 `call [rip+slot]`) name the slot.
    const name = d.target >= 0 ? names[d.target] : d.refIsMemory ? names[d.ref] : undefined;
    const operands = text.operands ? ` ${text.operands}` : '';
    lines.push(`0x${v.toString(16)}: ${text.mnemonic}${operands}${name ? ` ; ${name}` : ''}`);
    v += d.length;
  }
  return lines;
}
