// The distinct instruction encodings of a recovered graph, each formatted once. Similarity and capability
// features read an instruction's text through its encoding id instead of decoding again: what they keep
// of the text (mnemonic, classes, immediates, displacements) depends on the bytes alone, and most
// instructions recur (libcrypto: 0.61 M instructions, 0.14 M distinct encodings). Branch targets and
// PC-relative addresses are the only location-dependent text, and no consumer keeps them.
// May import src/shared, src/contracts, engine/formats, engine/disasm and engine/cfg.
import type { FunctionGraph } from '../cfg/index.js';
import { decoderOf, type DecoderMode, type Decoders, type InstructionText } from '../disasm/index.js';
import { fileOffsetOf, type BinaryImage } from '../formats/image.js';

export interface Encodings {
  /** Per instruction of `graph.insns`: its encoding id, or -1 when its bytes are not in the file. */
  of: Int32Array;
  /** Per encoding id: its text (null when the decoder cannot format it) and the decoder mode it was read in. */
  text: (InstructionText | null)[];
  mode: DecoderMode[];
}

const EMPTY = 0;

/** Open-addressing table from (mode, bytes) to an id; the bytes compared in place in the image. */
class EncodingTable {
  private slots = new Int32Array(1 << 16);
  private offset: number[] = [];
  private length: number[] = [];
  private modeIndex: number[] = [];

  constructor(private readonly bytes: Uint8Array) {}

  /** The id of the encoding at `off`; `isNew` tells the caller to describe it. */
  idOf(mode: number, off: number, len: number): { id: number; isNew: boolean } {
    const mask = this.slots.length - 1;
    for (let s = this.hash(mode, off, len) & mask; ; s = (s + 1) & mask) {
      const slot = this.slots[s]!;
      if (slot === EMPTY) {
        const id = this.offset.length;
        this.offset.push(off);
        this.length.push(len);
        this.modeIndex.push(mode);
        this.slots[s] = id + 1;
        if (this.offset.length * 2 > this.slots.length) this.rehash();
        return { id, isNew: true };
      }
      const id = slot - 1;
      if (this.length[id] === len && this.modeIndex[id] === mode && this.sameBytes(this.offset[id]!, off, len)) {
        return { id, isNew: false };
      }
    }
  }

  /** FNV-style over the bytes, seeded by mode and length. */
  private hash(mode: number, off: number, len: number): number {
    let h = Math.imul(mode + 1, 0x9e3779b1) ^ len;
    for (let i = 0; i < len; i++) h = Math.imul(h ^ this.bytes[off + i]!, 0x01000193);
    return h ^ (h >>> 15);
  }

  private sameBytes(a: number, b: number, len: number): boolean {
    for (let i = 0; i < len; i++) if (this.bytes[a + i] !== this.bytes[b + i]) return false;
    return true;
  }

  private rehash(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    const mask = this.slots.length - 1;
    for (const slot of old) {
      if (slot === EMPTY) continue;
      const id = slot - 1;
      let s = this.hash(this.modeIndex[id]!, this.offset[id]!, this.length[id]!) & mask;
      while (this.slots[s] !== EMPTY) s = (s + 1) & mask;
      this.slots[s] = slot;
    }
  }
}

/** Every instruction of `graph` → its encoding, and each distinct encoding's text, formatted once. */
export function encodeInstructions(image: BinaryImage, graph: FunctionGraph, decoders: Decoders): Encodings {
  const { addr, len } = graph.insns;
  const of = new Int32Array(graph.insns.count).fill(-1);
  const table = new EncodingTable(image.bytes);
  const text: (InstructionText | null)[] = [];
  const mode: DecoderMode[] = [];
  const modes: DecoderMode[] = [];
  const { start, func, insns, firstInsn } = graph.blocks;
  for (let b = 0; b < start.length; b++) {
    const decoder = decoderOf(decoders, graph.functions[func[b]!]!.thumb);
    let m = modes.indexOf(decoder.mode);
    if (m < 0) m = modes.push(decoder.mode) - 1;
    // A block's instructions are contiguous: one address lookup per block.
    const base = fileOffsetOf(image, start[b]!);
    if (base < 0) continue;
    for (let k = firstInsn[b]!, last = k + insns[b]!; k < last; k++) {
      const off = base + (addr[k]! - start[b]!);
      if (off + len[k]! > image.bytes.length) break;
      const { id, isNew } = table.idOf(m, off, len[k]!);
      if (isNew) {
        text.push(decoder.text(image.bytes, off, addr[k]!));
        mode.push(decoder.mode);
      }
      of[k] = id;
    }
  }
  return { of, text, mode };
}
