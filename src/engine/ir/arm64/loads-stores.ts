// AArch64 loads and stores: literal, unsigned offset, unscaled, pre- and post-index (the base register's
// update is a write of its own), register offset, pairs (ldp/stp/ldpsw), exclusive and acquire/release,
// atomic memory operations and the SIMD structure loads and stores. A load into a W register zero-extends
// into the X register; ldrs* sign-extend.
import { bin, konst, load, reg, un, type Expr } from '../ir.js';
import { extended } from './dp-register.js';
import { R31, type Arm64Insn } from './insn.js';
import { TEMP } from './registers.js';

/** The access: bytes, and how a load widens the value into which register. */
interface Access {
  bytes: number;
  load: boolean;
  vector: boolean;
  /** Loads into general registers: extension and width of the destination (4: a W register). */
  signed: boolean;
  into: number;
}

export function loadStore(x: Arm64Insn, w: number): boolean {
  if ((w & 0x3b000000) === 0x18000000) return literal(x, w);
  if ((w & 0x3a000000) === 0x28000000) return pair(x, w);
  if ((w & 0x3b000000) === 0x39000000) {
    const a = single(w);
    if (!a) return false;
    const base = x.x((w >>> 5) & 31, 8, true);
    if (a.bytes) transfer(x, w & 31, a, bin('add', base, konst(((w >>> 10) & 0xfff) * a.bytes, 8)));
    return true;
  }
  if ((w & 0x3b200000) === 0x38000000) return immediate9(x, w);
  if ((w & 0x3b200c00) === 0x38200800) return registerOffset(x, w);
  if ((w & 0x3f200c00) === 0x38200000) return atomic(x, w);
  if ((w & 0x3f000000) === 0x08000000) return exclusive(x, w);
  if ((w & 0xbf800000) === 0x0c000000 || (w & 0xbf800000) === 0x0c800000) return structures(x, w, false);
  if ((w & 0xbf800000) === 0x0d000000 || (w & 0xbf800000) === 0x0d800000) return structures(x, w, true);
  return false; // ldraa/ldrab, ldapr with offset, memory-tag stores, rcpc forms: not in compiled C
}

/** size (31:30), V (26) and opc (23:22) of a single-register access; bytes 0 for a prefetch; null unallocated. */
function single(w: number): Access | null {
  const size = w >>> 30;
  const opc = (w >>> 22) & 3;
  if ((w >>> 26) & 1) {
    if (opc >= 2 && size !== 0) return null;
    return { bytes: opc >= 2 ? 16 : 1 << size, load: (opc & 1) === 1, vector: true, signed: false, into: 16 };
  }
  const bytes = 1 << size;
  if (opc === 0) return { bytes, load: false, vector: false, signed: false, into: 8 };
  if (opc === 1) return { bytes, load: true, vector: false, signed: false, into: size === 3 ? 8 : 4 };
  if (size === 3) return opc === 2 ? { bytes: 0, load: false, vector: false, signed: false, into: 8 } : null; // PRFM
  if (opc === 2) return { bytes, load: true, vector: false, signed: true, into: 8 };
  return size === 2 ? null : { bytes, load: true, vector: false, signed: true, into: 4 };
}

/** Loads register `rt` from, or stores it to, `addr`. */
function transfer(x: Arm64Insn, rt: number, a: Access, addr: Expr): void {
  if (!a.load) {
    x.e.store(addr, a.vector ? x.v(rt, a.bytes) : x.x(rt, a.bytes));
    return;
  }
  const v = load(addr, a.bytes);
  if (a.vector) x.setV(rt, v);
  else x.setX(rt, a.bytes < a.into ? un(a.signed ? 'sext' : 'zext', v, a.into) : v);
}

function literal(x: Arm64Insn, w: number): boolean {
  const opc = w >>> 30;
  const vector = (w >>> 26) & 1;
  if (opc === 3) return !vector; // PRFM (literal)
  const bytes = vector ? 4 << opc : opc === 0 ? 4 : opc === 1 ? 8 : 4;
  const a: Access = { bytes, load: true, vector: vector === 1, signed: opc === 2, into: vector ? 16 : 8 };
  transfer(x, w & 31, a, konst(x.d.ref, 8));
  return true;
}

/** Unscaled (ldur/stur), post-index, unprivileged and pre-index forms with a signed 9-bit offset. */
function immediate9(x: Arm64Insn, w: number): boolean {
  const a = single(w);
  const mode = (w >>> 10) & 3;
  if (!a || (a.bytes === 0 && mode !== 0)) return false;
  const rn = (w >>> 5) & 31;
  const base = x.x(rn, 8, true);
  const offset = konst((((w >>> 12) & 0x1ff) << 23) >> 23, 8);
  const moved = bin('add', base, offset);
  if (a.bytes === 0) return true; // PRFUM
  transfer(x, w & 31, a, mode === 1 ? base : moved);
  if (mode === 1 || mode === 3) x.setX(rn, moved, true);
  return true;
}

function registerOffset(x: Arm64Insn, w: number): boolean {
  const a = single(w);
  const option = (w >>> 13) & 7;
  if (!a || !(option & 2)) return false;
  if (a.bytes === 0) return true; // PRFM (register)
  const shift = w & (1 << 12) ? Math.log2(a.bytes) : 0;
  const index = extended(x, (w >>> 16) & 31, option, shift, 8);
  transfer(x, w & 31, a, bin('add', x.x((w >>> 5) & 31, 8, true), index));
  return true;
}

/** LDP/STP/LDNP/STNP/LDPSW: two registers at consecutive addresses, with writeback before or after. */
function pair(x: Arm64Insn, w: number): boolean {
  const opc = w >>> 30;
  const vector = (w >>> 26) & 1;
  const isLoad = (w >>> 22) & 1;
  const mode = (w >>> 23) & 3; // 0 no-allocate, 1 post-index, 2 offset, 3 pre-index
  if (opc === 3 || (!vector && opc === 1 && (!isLoad || mode === 0))) return false; // STGP, unallocated
  const bytes = vector ? 4 << opc : opc === 2 ? 8 : 4;
  const a: Access = {
    bytes,
    load: isLoad === 1,
    vector: vector === 1,
    signed: !vector && opc === 1,
    into: vector ? 16 : opc === 0 ? 4 : 8,
  };
  const rn = (w >>> 5) & 31;
  const base = x.x(rn, 8, true);
  const moved = bin('add', base, konst(((((w >>> 15) & 0x7f) << 25) >> 25) * bytes, 8));
  const first = mode === 1 ? base : moved;
  transfer(x, w & 31, a, first);
  transfer(x, (w >>> 10) & 31, a, bin('add', first, konst(bytes, 8)));
  if (mode === 1 || mode === 3) x.setX(rn, moved, true);
  return true;
}

/** LDXR/STXR, LDAXR/STLXR, LDXP/STXP, LDAR/STLR and CAS: Rs receives the status (stores) or the old value (CAS). */
function exclusive(x: Arm64Insn, w: number): boolean {
  const bytes = 1 << (w >>> 30);
  const o2 = (w >>> 23) & 1;
  const isLoad = (w >>> 22) & 1;
  const o1 = (w >>> 21) & 1;
  const rs = (w >>> 16) & 31;
  const rt = w & 31;
  const addr = x.x((w >>> 5) & 31, 8, true);
  const into = bytes === 8 ? 8 : 4;
  if (o2 && o1) return compareAndSwap(x, rs, rt, addr, bytes);
  if (o1 && bytes < 4) return false; // CASP: not in compiled C
  const a: Access = { bytes, load: isLoad === 1, vector: false, signed: false, into };
  transfer(x, rt, a, addr);
  if (o1) transfer(x, (w >>> 10) & 31, a, bin('add', addr, konst(bytes, 8)));
  if (!o2 && !isLoad) x.opX(rs, 'store_exclusive_status', [], 4);
  return true;
}

/** CAS: Rs ← [Rn]; [Rn] ← Rt when the old value equalled Rs. The old value is read into the scratch register first. */
function compareAndSwap(x: Arm64Insn, rs: number, rt: number, addr: Expr, bytes: number): boolean {
  const old = reg(TEMP + 1, bytes);
  x.e.first({ k: 'set', r: TEMP + 1, ver: -1, e: load(addr, bytes), at: x.e.at });
  x.e.store(addr, { k: 'op', name: 'cas', args: [old, x.x(rs, bytes), x.x(rt, bytes)], w: bytes });
  x.setX(rs, bytes < 4 ? un('zext', old, 4) : old);
  return true;
}

const ATOMICS = ['ldadd', 'ldclr', 'ldeor', 'ldset', 'ldsmax', 'ldsmin', 'ldumax', 'ldumin'];

/** LDADD…LDUMIN and SWP: Rt ← [Rn], [Rn] ← op(old, Rs); LDAPR: a load. */
function atomic(x: Arm64Insn, w: number): boolean {
  const bytes = 1 << (w >>> 30);
  const o3 = (w >>> 15) & 1;
  const opc = (w >>> 12) & 7;
  const rt = w & 31;
  const addr = x.x((w >>> 5) & 31, 8, true);
  const into = bytes === 8 ? 8 : 4;
  if (o3 && opc === 4) {
    transfer(x, rt, { bytes, load: true, vector: false, signed: false, into }, addr);
    return true;
  }
  if (o3 && opc !== 0) return false;
  const old = reg(TEMP + 1, bytes);
  const rs = x.x((w >>> 16) & 31, bytes);
  x.e.first({ k: 'set', r: TEMP + 1, ver: -1, e: load(addr, bytes), at: x.e.at });
  x.e.store(addr, o3 ? rs : { k: 'op', name: ATOMICS[opc]!, args: [old, rs], w: bytes });
  x.setX(rt, bytes < into ? un('zext', old, into) : old);
  return true;
}

/** Registers of LD1–LD4/ST1–ST4 (multiple structures) by opcode (bits 15:12). */
const MULTIPLE: Record<number, number> = { 0: 4, 2: 4, 4: 3, 6: 3, 7: 1, 8: 2, 10: 2 };

/**
 * LD1–LD4 and ST1–ST4, whole registers or single lanes: the registers as a block of memory (lanes and
 * interleaving are below what the IR tracks), with the post-index update by the size or by Rm.
 */
function structures(x: Arm64Insn, w: number, lanes: boolean): boolean {
  const isLoad = (w >>> 22) & 1;
  const opcode = (w >>> 12) & 0xf;
  const rt = w & 31;
  const rn = (w >>> 5) & 31;
  const rm = (w >>> 16) & 31;
  const post = (w >>> 23) & 1;
  if (!post && rm !== 0) return false;
  let count: number;
  let bytes: number;
  let keeps = false; // a lane load keeps the register's other lanes
  if (!lanes) {
    const n = MULTIPLE[opcode];
    if (!n) return false;
    count = n;
    bytes = w & (1 << 30) ? 16 : 8;
  } else {
    count = ((((opcode >>> 1) & 1) << 1) | ((w >>> 21) & 1)) + 1;
    const kind = opcode >>> 2;
    const size = (w >>> 10) & 3;
    bytes = kind === 0 ? 1 : kind === 1 ? 2 : kind === 2 ? (size & 1 ? 8 : 4) : 1 << size;
    keeps = kind !== 3;
  }
  const base = x.x(rn, 8, true);
  for (let i = 0; i < count; i++) {
    const addr = i ? bin('add', base, konst(i * bytes, 8)) : base;
    const vt = (rt + i) % 32;
    if (!isLoad) x.e.store(addr, lanes ? { k: 'op', name: 'lane', args: [x.v(vt, 16)], w: bytes } : x.v(vt, bytes));
    else if (lanes)
      x.setV(vt, {
        k: 'op',
        name: keeps ? 'ins' : 'dup',
        args: keeps ? [x.v(vt, 16), load(addr, bytes)] : [load(addr, bytes)],
        w: 16,
      });
    else x.setV(vt, load(addr, bytes));
  }
  if (post) x.setX(rn, bin('add', base, rm === R31 ? konst(count * bytes, 8) : x.x(rm, 8)), true);
  return true;
}
