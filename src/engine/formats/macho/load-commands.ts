// Mach header and the load-command walk: every command the later readers need, bounds-checked against the
// command's own size and the slice. The walk stops at a cmdsize below 8 (it would never advance) and at
// sizeofcmds, so it ends within sizeofcmds / 8 steps whatever ncmds claims.
import { LIMITS } from './context.js';
import type { MachOContext } from './context.js';
import {
  LC_CODE_SIGNATURE,
  LC_DYSYMTAB,
  LC_FUNCTION_STARTS,
  LC_LAZY_LOAD_DYLIB,
  LC_LOAD_DYLIB,
  LC_LOAD_UPWARD_DYLIB,
  LC_LOAD_WEAK_DYLIB,
  LC_MAIN,
  LC_REEXPORT_DYLIB,
  LC_SEGMENT,
  LC_SEGMENT_64,
  LC_SYMTAB,
  LC_UNIXTHREAD,
  LC_UUID,
  MH_MAGIC_64,
} from './constants.js';

/** Every command that takes a two-level-namespace library ordinal, in load order. */
const DYLIB_COMMANDS = new Set([
  LC_LOAD_DYLIB,
  LC_LOAD_WEAK_DYLIB,
  LC_REEXPORT_DYLIB,
  LC_LAZY_LOAD_DYLIB,
  LC_LOAD_UPWARD_DYLIB,
]);
const VM_PROT_READ = 1;
const VM_PROT_WRITE = 2;
const VM_PROT_EXECUTE = 4;
const S_ATTR_PURE_INSTRUCTIONS = 0x80000000;
const S_ATTR_SOME_INSTRUCTIONS = 0x400;
const ZEROFILL_TYPES = new Set([0x1, 0xc, 0x12]);

export interface MachHeader {
  is64: boolean;
  cputype: number;
  filetype: number;
  flags: number;
  headerSize: number;
  sizeofcmds: number;
}

export interface Segment {
  name: string;
  vmaddr: number;
  vmsize: number;
  fileoff: number;
  filesize: number;
  read: boolean;
  write: boolean;
  exec: boolean;
}

export interface Section {
  segname: string;
  sectname: string;
  addr: number;
  size: number;
  /** File offset (within the slice) and bytes there; 0/0 for zero-fill sections. */
  offset: number;
  fileSize: number;
  /** Section type: flags & 0xff. */
  type: number;
  reserved1: number;
  reserved2: number;
  read: boolean;
  write: boolean;
  exec: boolean;
}

export interface LinkeditRange {
  offset: number;
  size: number;
}

export interface Commands {
  header: MachHeader;
  segments: Segment[];
  sections: Section[];
  symtab: { symoff: number; nsyms: number; stroff: number; strsize: number } | null;
  indirect: LinkeditRange | null;
  dylibs: string[];
  mainEntryoff: number | null;
  /** State of LC_UNIXTHREAD: offset of the thread state, its flavor and size in bytes. */
  thread: { flavor: number; state: number; size: number } | null;
  functionStarts: LinkeditRange | null;
  uuid: string | null;
  codeSignature: LinkeditRange | null;
}

export function readHeader(ctx: MachOContext): MachHeader {
  const v = ctx.v;
  const is64 = v.u32(0) === MH_MAGIC_64;
  return {
    is64,
    cputype: v.u32(4),
    filetype: v.u32(12),
    flags: v.u32(24),
    headerSize: is64 ? 32 : 28,
    sizeofcmds: v.u32(20),
  };
}

/** What is known before (or without) the walk: the header alone. */
export function emptyCommands(header: MachHeader): Commands {
  return {
    header,
    segments: [],
    sections: [],
    symtab: null,
    indirect: null,
    dylibs: [],
    mainEntryoff: null,
    thread: null,
    functionStarts: null,
    uuid: null,
    codeSignature: null,
  };
}

export function readCommands(ctx: MachOContext, header: MachHeader): Commands {
  const v = ctx.v;
  const out = emptyCommands(header);
  const ncmds = v.u32(16);
  const end = Math.min(v.length, header.headerSize + header.sizeofcmds);
  if (header.headerSize + header.sizeofcmds > v.length) ctx.warn('load commands run past the end of the file');
  let at = header.headerSize;
  for (let i = 0; i < ncmds; i++) {
    if (i >= LIMITS.loadCommands) {
      ctx.warn(`load commands capped at ${LIMITS.loadCommands} of ${ncmds}`);
      break;
    }
    if (at + 8 > end) {
      ctx.warn(`load command ${i} of ${ncmds} lies outside sizeofcmds`);
      break;
    }
    const cmd = v.u32(at);
    const size = v.u32(at + 4);
    if (size < 8 || at + size > end) {
      ctx.warn(`load command ${i} (0x${cmd.toString(16)}) has bad cmdsize ${size}: walk stopped`);
      break;
    }
    readCommand(ctx, out, cmd, at, size);
    at += size;
  }
  return out;
}

function readCommand(ctx: MachOContext, out: Commands, cmd: number, at: number, size: number): void {
  const v = ctx.v;
  const linkedit = (): LinkeditRange | null => (size >= 16 ? { offset: v.u32(at + 8), size: v.u32(at + 12) } : null);
  if (cmd === LC_SEGMENT || cmd === LC_SEGMENT_64) readSegment(ctx, out, at, size, cmd === LC_SEGMENT_64);
  else if (cmd === LC_SYMTAB && size >= 24)
    out.symtab = { symoff: v.u32(at + 8), nsyms: v.u32(at + 12), stroff: v.u32(at + 16), strsize: v.u32(at + 20) };
  else if (cmd === LC_DYSYMTAB && size >= 80) out.indirect = { offset: v.u32(at + 56), size: v.u32(at + 60) };
  else if (DYLIB_COMMANDS.has(cmd) && size >= 24) {
    const nameOffset = v.u32(at + 8);
    // Ordinals count every dylib command, so an unreadable name still takes its place in the list.
    out.dylibs.push(nameOffset >= 24 && nameOffset < size ? ctx.name(at + nameOffset, size - nameOffset) : '');
  } else if (cmd === LC_MAIN && size >= 24) out.mainEntryoff = ctx.word(at + 8, true);
  else if (cmd === LC_UNIXTHREAD && size >= 16)
    out.thread = { flavor: v.u32(at + 8), state: at + 16, size: Math.min(v.u32(at + 12) * 4, size - 16) };
  else if (cmd === LC_FUNCTION_STARTS) out.functionStarts = linkedit();
  else if (cmd === LC_CODE_SIGNATURE) out.codeSignature = linkedit();
  else if (cmd === LC_UUID && size >= 24) out.uuid = formatUuid(v.bytes, at + 8);
}

function readSegment(ctx: MachOContext, out: Commands, at: number, size: number, is64: boolean): void {
  const v = ctx.v;
  const headerSize = is64 ? 72 : 56;
  const sectionSize = is64 ? 80 : 68;
  if (size < headerSize) {
    ctx.warn(`segment command at 0x${at.toString(16)} shorter than its header`);
    return;
  }
  const w = is64 ? 8 : 4;
  const word = (offset: number): number => ctx.word(offset, is64);
  const prot = v.u32(at + 24 + 4 * w + 4);
  const segment: Segment = {
    name: v.fixedString(at + 8, 16),
    vmaddr: word(at + 24),
    vmsize: word(at + 24 + w),
    fileoff: word(at + 24 + 2 * w),
    filesize: word(at + 24 + 3 * w),
    read: (prot & VM_PROT_READ) !== 0,
    write: (prot & VM_PROT_WRITE) !== 0,
    exec: (prot & VM_PROT_EXECUTE) !== 0,
  };
  out.segments.push(segment);
  const declared = v.u32(at + 24 + 4 * w + 8);
  const fit = Math.floor((size - headerSize) / sectionSize);
  if (declared > fit) ctx.warn(`segment ${segment.name}: ${declared} sections declared, ${fit} fit its command`);
  for (let i = 0; i < Math.min(declared, fit); i++) {
    if (out.sections.length >= LIMITS.sections) {
      ctx.warn(`sections capped at ${LIMITS.sections}`);
      return;
    }
    const s = at + headerSize + i * sectionSize;
    // addr and size are words; offset, align, reloff, nreloc, flags, reserved1, reserved2 follow as u32s.
    const tail = s + 32 + 2 * w;
    const flags = v.u32(tail + 16);
    const type = flags & 0xff;
    const addr = word(s + 32);
    const sectSize = word(s + 32 + w);
    const offset = v.u32(tail);
    const zerofill = ZEROFILL_TYPES.has(type) || offset === 0;
    const fileSize = zerofill || offset >= v.length ? 0 : Math.min(sectSize, v.length - offset);
    if (!zerofill && fileSize < sectSize) ctx.warn(`section ${v.fixedString(s, 16)} runs past the end of the file`);
    out.sections.push({
      segname: v.fixedString(s + 16, 16),
      sectname: v.fixedString(s, 16),
      addr,
      size: sectSize,
      offset: fileSize > 0 ? offset : 0,
      fileSize,
      type,
      reserved1: v.u32(tail + 20),
      reserved2: v.u32(tail + 24),
      read: segment.read,
      write: segment.write,
      // __TEXT is r-x as a whole; only sections flagged as holding instructions are code (not __cstring).
      exec: segment.exec && (flags & (S_ATTR_PURE_INSTRUCTIONS | S_ATTR_SOME_INSTRUCTIONS)) !== 0,
    });
  }
}

/** LC_UUID bytes in order, grouped 8-4-4-4-12 as dwarfdump and the crash reporter print them. */
export function formatUuid(bytes: Uint8Array, at: number): string {
  let hex = '';
  for (let i = 0; i < 16; i++) hex += (bytes[at + i] ?? 0).toString(16).toUpperCase().padStart(2, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
