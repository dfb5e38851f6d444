// The filters an xz block may chain before LZMA2: the branch converters (BCJ), which turned the absolute call
// and jump targets that compilers leave relative back into relative ones, and Delta. Each undoes its encoding
// in place over a whole block's output, positions counted from the block's start plus the filter's start
// offset — the same result liblzma gets streaming, since a converter's state only looks a few bytes back.
import { DecodeError } from './errors.js';

/** Undoes one filter over a block's output, in place. */
export type BlockFilter = (data: Uint8Array) => void;

export const FILTER_LZMA2 = 0x21;

interface FilterKind {
  name: string;
  /** Builds the decoder from the filter's properties, or throws DecodeError when they are invalid. */
  make(props: Uint8Array): BlockFilter;
}

/** A branch converter's only property: a 32-bit start offset (default 0) added to every position. */
function bcj(name: string, convert: (data: Uint8Array, start: number) => void): FilterKind {
  return {
    name,
    make(props) {
      if (props.length !== 0 && props.length !== 4) throw new DecodeError(`xz ${name} filter: bad properties`);
      const start = props.length === 4 ? props[0]! | (props[1]! << 8) | (props[2]! << 16) | (props[3]! << 24) : 0;
      return (data) => convert(data, start);
    },
  };
}

const isAddressTop = (b: number) => b === 0 || b === 0xff;
// x86 state: which of the three bytes before an E8/E9 were themselves E8/E9 bytes (a 3-bit history).
const ALLOWED_BY_MASK = [true, true, true, false, true, false, false, false];
const BIT_BY_MASK = [0, 1, 2, 2, 3, 3, 3, 3];

/** x86 CALL (E8) and JMP (E9) rel32 operands whose top byte is 0x00 or 0xFF (near targets). */
function x86(data: Uint8Array, start: number): void {
  const n = data.length;
  let mask = 0;
  let prev = -1;
  for (let i = 0; i + 5 <= n;) {
    if ((data[i]! & 0xfe) !== 0xe8) {
      i++;
      continue;
    }
    const gap = i - prev;
    prev = i;
    if (gap > 3) mask = 0;
    else {
      mask = (mask << (gap - 1)) & 7;
      if (mask !== 0 && (!ALLOWED_BY_MASK[mask] || isAddressTop(data[i + 4 - BIT_BY_MASK[mask]!]!))) {
        mask = ((mask << 1) & 7) | 1;
        i++;
        continue;
      }
    }
    if (!isAddressTop(data[i + 4]!)) {
      mask = ((mask << 1) & 7) | 1;
      i++;
      continue;
    }
    let src = data[i + 1]! | (data[i + 2]! << 8) | (data[i + 3]! << 16) | (data[i + 4]! << 24);
    let dest: number;
    for (;;) {
      dest = (src - (start + i + 5)) | 0;
      if (mask === 0) break;
      const shift = BIT_BY_MASK[mask]! * 8;
      if (!isAddressTop((dest >>> (24 - shift)) & 0xff)) break;
      src = dest ^ ((1 << (32 - shift)) - 1);
    }
    data[i + 1] = dest;
    data[i + 2] = dest >>> 8;
    data[i + 3] = dest >>> 16;
    data[i + 4] = (dest >>> 24) & 1 ? 0xff : 0;
    i += 5;
  }
}

/** PowerPC `bl` (opcode 18 with AA=0, LK=1), big-endian. */
function powerpc(data: Uint8Array, start: number): void {
  for (let i = 0; i + 4 <= data.length; i += 4) {
    if (data[i]! >>> 2 !== 0x12 || (data[i + 3]! & 3) !== 1) continue;
    const src = ((data[i]! & 3) << 24) | (data[i + 1]! << 16) | (data[i + 2]! << 8) | (data[i + 3]! & 0xfc);
    const dest = src - (start + i);
    data[i] = 0x48 | ((dest >>> 24) & 3);
    data[i + 1] = dest >>> 16;
    data[i + 2] = dest >>> 8;
    data[i + 3] = (data[i + 3]! & 3) | (dest & 0xff);
  }
}

/** ARM `bl` (condition "always", 0xEB), little-endian, targets relative to the instruction + 8. */
function arm(data: Uint8Array, start: number): void {
  for (let i = 0; i + 4 <= data.length; i += 4) {
    if (data[i + 3] !== 0xeb) continue;
    const src = ((data[i + 2]! << 16) | (data[i + 1]! << 8) | data[i]!) << 2;
    const dest = (src - (start + i + 8)) >>> 2;
    data[i] = dest;
    data[i + 1] = dest >>> 8;
    data[i + 2] = dest >>> 16;
  }
}

/** Thumb `bl` pairs (F000 F800 halfwords), targets relative to the instruction + 4. */
function armThumb(data: Uint8Array, start: number): void {
  for (let i = 0; i + 4 <= data.length; i += 2) {
    if ((data[i + 1]! & 0xf8) !== 0xf0 || (data[i + 3]! & 0xf8) !== 0xf8) continue;
    const src = (((data[i + 1]! & 7) << 19) | (data[i]! << 11) | ((data[i + 3]! & 7) << 8) | data[i + 2]!) << 1;
    const dest = (src - (start + i + 4)) >>> 1;
    data[i + 1] = 0xf0 | ((dest >>> 19) & 7);
    data[i] = dest >>> 11;
    data[i + 3] = 0xf8 | ((dest >>> 8) & 7);
    data[i + 2] = dest;
    i += 2;
  }
}

/** SPARC `call` (op 01) with a 22-bit sign-extended displacement, big-endian. */
function sparc(data: Uint8Array, start: number): void {
  for (let i = 0; i + 4 <= data.length; i += 4) {
    const b0 = data[i]!;
    const b1 = data[i + 1]!;
    if (!((b0 === 0x40 && (b1 & 0xc0) === 0) || (b0 === 0x7f && (b1 & 0xc0) === 0xc0))) continue;
    const src = ((b0 << 24) | (b1 << 16) | (data[i + 2]! << 8) | data[i + 3]!) << 2;
    let dest = (src - (start + i)) >>> 2;
    dest = (((0 - ((dest >>> 22) & 1)) << 22) & 0x3fffffff) | (dest & 0x3fffff) | 0x40000000;
    data[i] = dest >>> 24;
    data[i + 1] = dest >>> 16;
    data[i + 2] = dest >>> 8;
    data[i + 3] = dest;
  }
}

/** ARM64 `bl` (26-bit word offset) and `adrp` (21-bit page offset, converted only within ±512 MiB). */
function arm64(data: Uint8Array, start: number): void {
  for (let i = 0; i + 4 <= data.length; i += 4) {
    const pc = (start + i) | 0;
    let instr = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    if (instr >>> 26 === 0x25) {
      instr = 0x94000000 | ((instr - (pc >>> 2)) & 0x03ffffff);
    } else if ((instr & 0x9f000000) === (0x90000000 | 0)) {
      const src = ((instr >>> 29) & 3) | ((instr >>> 3) & 0x001ffffc);
      if ((src + 0x00020000) & 0x001c0000) continue;
      const dest = (src - (pc >>> 12)) | 0;
      instr &= 0x9000001f;
      instr |= (dest & 3) << 29;
      instr |= (dest & 0x0003fffc) << 3;
      instr |= -(dest & 0x00020000) & 0x00e00000;
    } else continue;
    data[i] = instr;
    data[i + 1] = instr >>> 8;
    data[i + 2] = instr >>> 16;
    data[i + 3] = instr >>> 24;
  }
}

/** Which of an IA-64 bundle's three 41-bit slots may hold a branch, by the bundle's 5-bit template. */
const IA64_BRANCH_SLOTS = [
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 4, 6, 6, 0, 0, 7, 7, 4, 4, 0, 0, 4, 4, 0, 0,
];

/** IA-64 `br.call`-style IP-relative branches in 16-byte bundles (BigInt: slots straddle 32-bit words). */
function ia64(data: Uint8Array, start: number): void {
  for (let i = 0; i + 16 <= data.length; i += 16) {
    const slots = IA64_BRANCH_SLOTS[data[i]! & 0x1f]!;
    for (let slot = 0, bitPos = 5; slot < 3; slot++, bitPos += 41) {
      if (((slots >>> slot) & 1) === 0) continue;
      const bytePos = i + (bitPos >>> 3);
      const bitRes = BigInt(bitPos & 7);
      let instruction = 0n;
      for (let j = 5; j >= 0; j--) instruction = (instruction << 8n) | BigInt(data[bytePos + j]!);
      let norm = instruction >> bitRes;
      if (((norm >> 37n) & 0xfn) !== 0x5n || ((norm >> 9n) & 0x7n) !== 0n) continue;
      let src = Number((norm >> 13n) & 0xfffffn);
      src |= Number((norm >> 36n) & 1n) << 20;
      const dest = ((src << 4) - (start + i)) >>> 4;
      norm &= ~(0x8fffffn << 13n);
      norm |= BigInt(dest & 0xfffff) << 13n;
      norm |= BigInt(dest & 0x100000) << 16n;
      instruction = (instruction & ((1n << bitRes) - 1n)) | (norm << bitRes);
      for (let j = 0; j < 6; j++) data[bytePos + j] = Number((instruction >> BigInt(8 * j)) & 0xffn);
    }
  }
}

const delta: FilterKind = {
  name: 'Delta',
  make(props) {
    if (props.length !== 1) throw new DecodeError('xz Delta filter: bad properties');
    const distance = props[0]! + 1;
    return (data) => {
      for (let i = distance; i < data.length; i++) data[i] = data[i]! + data[i - distance]!;
    };
  },
};

const FILTERS = new Map<number, FilterKind>([
  [0x03, delta],
  [0x04, bcj('x86', x86)],
  [0x05, bcj('PowerPC', powerpc)],
  [0x06, bcj('IA-64', ia64)],
  [0x07, bcj('ARM', arm)],
  [0x08, bcj('ARM-Thumb', armThumb)],
  [0x09, bcj('SPARC', sparc)],
  [0x0a, bcj('ARM64', arm64)],
]);

/** The decoder of a non-last filter in a block's chain; DecodeError names an id this module does not know. */
export function blockFilter(id: number, props: Uint8Array): BlockFilter {
  const kind = FILTERS.get(id);
  if (!kind) throw new DecodeError(`xz filter 0x${id.toString(16)} is not supported`);
  return kind.make(props);
}
