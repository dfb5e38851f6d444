// A 7z "streams info": the packed streams stored after the signature header (pack info), the folders that
// decode them (unpack info: each folder a small graph of coders whose inputs are packed streams or other
// coders' outputs, joined by bind pairs), and how each folder's output splits into files (substreams).
import { DecodeError } from '../../compression/errors.js';
import { Id, type HeaderCursor } from './cursor.js';

/**
 * Coders in one folder: 7-Zip writes at most four (BCJ2 and its three LZMA coders) plus 7zAES; each coder
 * may decode up to the budget, so the bound is also on the work one folder can cost.
 */
const MAX_CODERS = 16;
/** BCJ2's four inputs are the most any method takes. */
const MAX_CODER_INPUTS = 4;
/** Packed streams begin after the 32-byte signature header; pack positions count from there. */
export const SIGNATURE_HEADER_SIZE = 32;

export interface Coder {
  /** The method id in hex, as 7-Zip lists them: `030101` LZMA, `21` LZMA2, `06f10701` 7zAES … */
  method: string;
  inputs: number;
  props: Uint8Array;
}

export interface Folder {
  /** Each coder has one output (the only kind 7-Zip writes); out stream j is coder j's. */
  coders: Coder[];
  /** For each in stream (all coders' inputs in order): the coder whose output feeds it, or −1 if packed. */
  boundTo: number[];
  /** The in streams that packed streams feed, in the order of the folder's packed streams. */
  packed: number[];
  /** The coder whose output is the folder's (the one output no bind pair consumes). */
  main: number;
  /** Each coder's output size. */
  sizes: number[];
  crc: number | null;
  /** The folder's first packed stream in StreamsInfo.packs. */
  firstPack: number;
}

/** A stretch of the folder's output that is one file's data. */
export interface SubStream {
  folder: number;
  offset: number;
  size: number;
  crc: number | null;
}

export interface StreamsInfo {
  /** Packed streams as [start, end) offsets from the archive's start. */
  packs: { start: number; end: number }[];
  folders: Folder[];
  subStreams: SubStream[];
}

export const folderSize = (f: Folder): number => f.sizes[f.main]!;

/** A streams info, from just after its id to after its end id; `archiveSize` bounds the packed streams. */
export function readStreamsInfo(cur: HeaderCursor, archiveSize: number): StreamsInfo {
  let type = cur.number();
  let packs: StreamsInfo['packs'] | null = null;
  let folders: Folder[] = [];
  if (type === Id.packInfo) {
    packs = readPackInfo(cur, archiveSize);
    type = cur.number();
  }
  if (type === Id.unpackInfo) {
    folders = readUnpackInfo(cur);
    type = cur.number();
  }
  packs ??= [];
  let firstPack = 0;
  for (const f of folders) {
    f.firstPack = firstPack;
    firstPack += f.packed.length;
  }
  if (firstPack > packs.length) throw new DecodeError('7z folders use more packed streams than there are');
  let subStreams: SubStream[];
  if (type === Id.subStreamsInfo) {
    subStreams = readSubStreams(cur, folders);
    type = cur.number();
  } else subStreams = folders.map((f, folder) => ({ folder, offset: 0, size: folderSize(f), crc: f.crc }));
  if (type !== Id.end) throw new DecodeError(`7z streams info has property 0x${type.toString(16)} out of place`);
  return { packs, folders, subStreams };
}

function readPackInfo(cur: HeaderCursor, archiveSize: number): StreamsInfo['packs'] {
  let at = SIGNATURE_HEADER_SIZE + cur.number();
  const count = cur.count('packed streams');
  cur.waitFor(Id.size);
  const packs: StreamsInfo['packs'] = [];
  for (let i = 0; i < count; i++) {
    const size = cur.number();
    if (at + size > archiveSize) throw new DecodeError('7z packed stream runs past the archive');
    packs.push({ start: at, end: at + size });
    at += size;
  }
  for (let type = cur.number(); type !== Id.end; type = cur.number()) cur.skipData();
  return packs;
}

function readUnpackInfo(cur: HeaderCursor): Folder[] {
  cur.waitFor(Id.folder);
  // A folder takes at least three bytes: its coder count, a coder's flags and a one-byte method id.
  const count = cur.count('folders', 3);
  if (cur.byte() !== 0) throw new DecodeError('7z folders stored elsewhere ("external") are not read');
  const folders: Folder[] = [];
  for (let i = 0; i < count; i++) folders.push(readFolder(cur));
  cur.waitFor(Id.codersUnpackSize);
  for (const f of folders) for (let j = 0; j < f.coders.length; j++) f.sizes.push(cur.number());
  for (let type = cur.number(); type !== Id.end; type = cur.number()) {
    if (type !== Id.crc) {
      cur.skipData();
      continue;
    }
    const crcs = cur.digests(folders.length);
    folders.forEach((f, i) => (f.crc = crcs[i]!));
  }
  return folders;
}

const COMPLEX = 0x10;
const HAS_PROPS = 0x20;
/** Bit 6 is reserved, bit 7 marked "alternative methods", which no 7-Zip ever wrote. */
const UNKNOWN_FLAGS = 0xc0;

function readFolder(cur: HeaderCursor): Folder {
  const numCoders = cur.count('coders', 2);
  if (numCoders === 0 || numCoders > MAX_CODERS) throw new DecodeError(`7z folder with ${numCoders} coders`);
  const coders: Coder[] = [];
  let totalIn = 0;
  for (let i = 0; i < numCoders; i++) {
    const flags = cur.byte();
    const idSize = flags & 0x0f;
    if (flags & UNKNOWN_FLAGS || idSize > 8) throw new DecodeError(`7z coder flags 0x${flags.toString(16)}`);
    const method = Buffer.from(cur.take(idSize)).toString('hex');
    let inputs = 1;
    if (flags & COMPLEX) {
      inputs = cur.number();
      if (cur.number() !== 1) throw new DecodeError('7z coder with several outputs is not read');
      if (inputs === 0 || inputs > MAX_CODER_INPUTS) throw new DecodeError(`7z coder with ${inputs} inputs`);
    }
    const props = flags & HAS_PROPS ? cur.take(cur.number()) : new Uint8Array(0);
    coders.push({ method, inputs, props });
    totalIn += inputs;
  }
  // Every output but the folder's own feeds exactly one input; the inputs left over are the packed ones.
  const boundTo = new Array<number>(totalIn).fill(-1);
  const consumed = new Uint8Array(numCoders);
  for (let i = 0; i < numCoders - 1; i++) {
    const input = cur.number();
    const output = cur.number();
    if (input >= totalIn || output >= numCoders || boundTo[input] !== -1 || consumed[output])
      throw new DecodeError('7z folder has an invalid bind pair');
    boundTo[input] = output;
    consumed[output] = 1;
  }
  // Every coder has an input, so at least one is left over for a packed stream.
  const numPacked = totalIn - (numCoders - 1);
  const packed: number[] = [];
  if (numPacked === 1) packed.push(boundTo.indexOf(-1));
  else
    for (let i = 0; i < numPacked; i++) {
      const input = cur.number();
      if (input >= totalIn || boundTo[input] !== -1 || packed.includes(input))
        throw new DecodeError('7z folder has an invalid packed stream index');
      packed.push(input);
    }
  return { coders, boundTo, packed, main: consumed.indexOf(0), sizes: [], crc: null, firstPack: 0 };
}

function readSubStreams(cur: HeaderCursor, folders: Folder[]): SubStream[] {
  const counts = folders.map(() => 1);
  let type = cur.number();
  while (type !== Id.crc && type !== Id.size && type !== Id.end) {
    if (type === Id.numUnpackStream) for (let i = 0; i < folders.length; i++) counts[i] = cur.number();
    else cur.skipData();
    type = cur.number();
  }

  const subStreams: SubStream[] = [];
  folders.forEach((f, folder) => {
    const n = counts[folder]!;
    if (n === 0) return;
    // All but the last size are listed (the last is what remains): n − 1 numbers of at least a byte each.
    if (n > 1 && (type !== Id.size || n - 1 > cur.left)) throw new DecodeError('7z substream sizes missing');
    let offset = 0;
    const total = folderSize(f);
    for (let i = 1; i < n; i++) {
      const size = cur.number();
      if (offset + size > total) throw new DecodeError('7z substreams add up past their folder');
      subStreams.push({ folder, offset, size, crc: null });
      offset += size;
    }
    subStreams.push({ folder, offset, size: total - offset, crc: n === 1 ? f.crc : null });
  });
  if (type === Id.size) type = cur.number();

  // CRCs are listed for the substreams whose CRC the folder does not already give.
  const unknown = subStreams.filter((s) => !(counts[s.folder] === 1 && folders[s.folder]!.crc !== null));
  for (; type !== Id.end; type = cur.number()) {
    if (type !== Id.crc) {
      cur.skipData();
      continue;
    }
    const crcs = cur.digests(unknown.length);
    unknown.forEach((s, i) => (s.crc = crcs[i]!));
  }
  return subStreams;
}
