// Function ranges from call-frame information: .eh_frame (found by section, else through PT_GNU_EH_FRAME's
// .eh_frame_hdr) and .debug_frame. Only CIE augmentations and FDE address fields are decoded; the CFA
// programs are skipped by length. Records are walked by their lengths, never recursively, and every
// length is held against the section before it is trusted.
import type { UnwindRange } from '../image.js';
import { EM_X86_64, PT_GNU_EH_FRAME, SHT_PROC_UNWIND } from './constants.js';
import { sectionNamed, type ElfContext } from './context.js';
import type { Budget } from './symbols.js';
import type { ElfView } from './view.js';

/** FDEs kept over the whole parse; one per function, and binaries with a million functions are rare. */
export const MAX_FDES = 1_000_000;
const TWO_32 = 0x1_0000_0000;
const DW_EH_PE_OMIT = 0xff;

/** Where a section's bytes are and the address they load at, so fields know their own address. */
export interface FrameSection {
  start: number;
  end: number;
  vaddr: number;
  debugFrame: boolean;
}

interface Bases {
  text: number | null;
  data: number | null;
}

interface Cie {
  enc: number;
  addrSize: number;
}

/** Sequential reads inside [pos, end); any read that would pass `end` sets `bad` and yields 0. */
export class Cursor {
  bad = false;

  constructor(
    private readonly view: ElfView,
    public pos: number,
    public end: number,
  ) {}

  private take(n: number): number {
    const at = this.pos;
    if (at + n > this.end) {
      this.bad = true;
      this.pos = this.end;
      return -1;
    }
    this.pos += n;
    return at;
  }

  u8(): number {
    const at = this.take(1);
    return at < 0 ? 0 : this.view.u8(at);
  }

  fixed(size: number, signed: boolean): number {
    const at = this.take(size);
    if (at < 0) return 0;
    const v = this.view;
    if (size === 2) return signed ? v.i16(at) : v.u16(at);
    if (size === 4) return signed ? v.i32(at) : v.u32(at);
    return signed ? v.i64(at) : v.u64(at);
  }

  /** LEB128, at most 10 bytes; values past 2^53 lose precision, which only garbage input produces. */
  leb(signed: boolean): number {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      const b = this.u8();
      if (this.bad) return 0;
      result += (b & 0x7f) * scale;
      scale *= 128;
      if ((b & 0x80) === 0) return signed && (b & 0x40) !== 0 ? result - scale : result;
    }
    this.bad = true;
    return 0;
  }

  cstring(max: number): string {
    let out = '';
    for (let i = 0; i < max; i++) {
      const c = this.u8();
      if (this.bad || c === 0) return out;
      out += String.fromCharCode(c);
    }
    this.bad = true;
    return out;
  }
}

/**
 * A DW_EH_PE-encoded pointer at the cursor. `fieldVaddr` is the address of the field (for pcrel). Null
 * when the encoding is unknown, omitted, indirect or relative to a base we do not know.
 */
export function readEncoded(
  c: Cursor,
  enc: number,
  addrSize: number,
  fieldVaddr: number,
  bases: Bases,
  is64: boolean,
): number | null {
  if (enc === DW_EH_PE_OMIT) return null;
  const app = enc & 0x70;
  if (app === 0x50) {
    const pad = (addrSize - (fieldVaddr % addrSize)) % addrSize;
    c.pos += pad;
    fieldVaddr += pad;
  }
  let value: number;
  switch (enc & 0x0f) {
    case 0x00:
      value = c.fixed(addrSize, false);
      break;
    case 0x01:
      value = c.leb(false);
      break;
    case 0x02:
    case 0x03:
    case 0x04:
      value = c.fixed(2 ** ((enc & 0x0f) - 1), false);
      break;
    case 0x09:
      value = c.leb(true);
      break;
    case 0x0a:
    case 0x0b:
    case 0x0c:
      value = c.fixed(2 ** ((enc & 0x0f) - 9), true);
      break;
    default:
      return null;
  }
  if (c.bad || (enc & 0x80) !== 0) return null;
  let base = 0;
  if (app === 0x10) base = fieldVaddr;
  else if (app === 0x20) base = bases.text ?? NaN;
  else if (app === 0x30) base = bases.data ?? NaN;
  else if (app !== 0 && app !== 0x50) return null;
  const v = base + value;
  if (!Number.isFinite(v)) return null;
  const wrapped = is64 ? v : ((v % TWO_32) + TWO_32) % TWO_32;
  return Number.isSafeInteger(wrapped) && wrapped >= 0 ? wrapped : null;
}

/** .eh_frame keeps 4-byte CIE ids/pointers even with 64-bit lengths; .debug_frame widens them (DWARF64). */
function idSizeOf(sec: FrameSection, hdr: number): number {
  return sec.debugFrame && hdr === 12 ? 8 : 4;
}

/** FDE pointer encoding and address size of the CIE whose record starts at `pos`, or null. */
function parseCie(view: ElfView, sec: FrameSection, pos: number, bases: Bases): Cie | null {
  let len = view.u32(pos);
  let hdr = 4;
  if (len === 0xffffffff) [len, hdr] = [view.u64(pos + 4), 12];
  const end = pos + hdr + len;
  if (len === 0 || end > sec.end) return null;
  const c = new Cursor(view, pos + hdr + idSizeOf(sec, hdr), end);
  const version = c.u8();
  const aug = c.cstring(16);
  let addrSize = view.wordSize as number;
  if (aug.includes('eh')) c.pos += addrSize;
  if (version >= 4) {
    addrSize = c.u8();
    c.u8();
    if (addrSize !== 4 && addrSize !== 8) return null;
  }
  c.leb(false);
  c.leb(true);
  if (version === 1) c.u8();
  else c.leb(false);
  let enc = 0;
  if (aug.startsWith('z')) {
    c.leb(false);
    for (let i = 1; i < aug.length && !c.bad; i++) {
      const ch = aug[i];
      if (ch === 'R') enc = c.u8();
      else if (ch === 'L') c.u8();
      else if (ch === 'P') {
        const penc = c.u8();
        readEncoded(c, penc & 0x7f, addrSize, sec.vaddr + (c.pos - sec.start), bases, view.is64);
      } else if (ch !== 'S' && ch !== 'B' && ch !== 'G') break;
    }
  }
  return c.bad ? null : { enc, addrSize };
}

/** Append the [start, end) of every FDE in one section to `out`. */
export function parseFrames(
  ctx: ElfContext,
  sec: FrameSection,
  bases: Bases,
  budget: Budget,
  out: UnwindRange[],
): void {
  const { view } = ctx;
  const cies = new Map<number, Cie | null>();
  let skipped = 0;
  let pos = sec.start;
  while (pos + 4 <= sec.end) {
    let len = view.u32(pos);
    let hdr = 4;
    if (len === 0) {
      if (!sec.debugFrame) break;
      pos += 4;
      continue;
    }
    if (len === 0xffffffff) [len, hdr] = [view.u64(pos + 4), 12];
    const idSize = idSizeOf(sec, hdr);
    const recEnd = pos + hdr + len;
    if (!Number.isSafeInteger(recEnd) || recEnd > sec.end || len < idSize) {
      ctx.diag.add(`frame record at file offset 0x${pos.toString(16)} overruns its section`);
      break;
    }
    const idPos = pos + hdr;
    const id = idSize === 8 ? view.u64(idPos) : view.u32(idPos);
    const isCie = sec.debugFrame ? id === (idSize === 8 ? 2 ** 64 - 1 : 0xffffffff) : id === 0;
    if (isCie) {
      if (!cies.has(pos)) cies.set(pos, parseCie(view, sec, pos, bases));
    } else {
      if (budget.left <= 0) {
        ctx.diag.add(`unwind entries exceed the limit of ${MAX_FDES}; the rest are ignored`);
        break;
      }
      const ciePos = sec.debugFrame ? sec.start + id : idPos - id;
      let cie = cies.get(ciePos);
      if (cie === undefined && ciePos >= sec.start && ciePos < sec.end && ciePos !== pos) {
        cie = parseCie(view, sec, ciePos, bases);
        cies.set(ciePos, cie);
      }
      const range = cie ? readFde(ctx, sec, idPos + idSize, recEnd, cie, bases) : null;
      if (!range) skipped++;
      else if (range.end > range.start) {
        out.push(range);
        budget.left--;
      }
    }
    pos = recEnd;
  }
  if (skipped > 0) ctx.diag.add(`${skipped} frame description entries could not be decoded`);
}

function readFde(
  ctx: ElfContext,
  sec: FrameSection,
  at: number,
  end: number,
  cie: Cie,
  bases: Bases,
): UnwindRange | null {
  const c = new Cursor(ctx.view, at, end);
  const is64 = ctx.header.is64;
  const enc = sec.debugFrame ? 0 : cie.enc;
  const start = readEncoded(c, enc, cie.addrSize, sec.vaddr + (at - sec.start), bases, is64);
  const size = readEncoded(c, enc & 0x0f, cie.addrSize, 0, bases, is64);
  if (start === null || size === null) return null;
  // Discarded functions leave FDEs with a zero start or size behind; they describe no code.
  if (size === 0 || start === 0) return { start: 0, end: 0 };
  return { start, end: start + size };
}

/** The frame sections of the file: .eh_frame (or via .eh_frame_hdr when unnamed) and .debug_frame. */
export function frameSections(ctx: ElfContext): FrameSection[] {
  const out: FrameSection[] = [];
  const eh =
    sectionNamed(ctx, '.eh_frame') ??
    (ctx.header.machine === EM_X86_64 ? ctx.sections.find((s) => s.type === SHT_PROC_UNWIND) : undefined);
  if (eh && eh.fileBytes > 0)
    out.push({ start: eh.offset, end: eh.offset + eh.fileBytes, vaddr: eh.addr, debugFrame: false });
  else {
    const viaHdr = fromEhFrameHdr(ctx);
    if (viaHdr) out.push(viaHdr);
  }
  const dbg = sectionNamed(ctx, '.debug_frame');
  if (dbg && dbg.fileBytes > 0)
    out.push({ start: dbg.offset, end: dbg.offset + dbg.fileBytes, vaddr: 0, debugFrame: true });
  return out;
}

/** .eh_frame_hdr starts: version 1, eh_frame_ptr encoding, count encoding, table encoding, eh_frame_ptr. */
function fromEhFrameHdr(ctx: ElfContext): FrameSection | null {
  const hdr = ctx.segments.find((p) => p.type === PT_GNU_EH_FRAME && p.fileBytes >= 8);
  if (!hdr || ctx.view.u8(hdr.offset) !== 1) return null;
  const c = new Cursor(ctx.view, hdr.offset + 4, hdr.offset + hdr.fileBytes);
  const enc = ctx.view.u8(hdr.offset + 1);
  const bases = { text: null, data: hdr.vaddr };
  const vaddr = readEncoded(c, enc, ctx.view.wordSize, hdr.vaddr + 4, bases, ctx.header.is64);
  if (vaddr === null) return null;
  const start = ctx.map.toOffset(vaddr);
  if (start < 0) {
    ctx.diag.add('.eh_frame_hdr points at an .eh_frame outside the file');
    return null;
  }
  return { start, end: start + ctx.map.fileBytesFrom(vaddr), vaddr, debugFrame: false };
}
