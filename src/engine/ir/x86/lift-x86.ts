// x86 and x86-64 → IR, from iced-x86's full decode. The instructions compilers emit for integer, pointer
// and scalar floating-point code get their semantics; every other instruction becomes an `op` (or an
// `effect`) over exactly the registers and memory iced says it reads and writes, so data flow stays
// complete even where the value computed is not modelled.
import type * as Iced from 'iced-x86';
import type { X86Decoder } from '../../disasm/x86-decoder.js';
import { bin, forEachRegRead, konst, load, ref, reg, un, type Cond, type Expr, type FlagOp, type Stmt } from '../ir.js';
import type { Lifter } from '../lifter.js';
import { FLAGS, FS_BASE, GS_BASE, icedRegisterSlots, R, ST0, TEMP, type RegisterSlot } from './registers.js';
import { liftX87, type X87Operands } from './x87.js';

type Handler = (x: X86Lifter, out: Stmt[]) => void;

const CONDITIONS: Record<string, Cond> = {
  o: 'ov',
  no: 'nov',
  b: 'ult',
  ae: 'uge',
  e: 'eq',
  ne: 'ne',
  be: 'ule',
  a: 'ugt',
  s: 'neg',
  ns: 'pos',
  p: 'par',
  np: 'npar',
  l: 'slt',
  ge: 'sge',
  le: 'sle',
  g: 'sgt',
};

const ALU: Record<string, { op: 'add' | 'sub' | 'and' | 'or' | 'xor'; flags: FlagOp }> = {
  Add: { op: 'add', flags: 'add' },
  Sub: { op: 'sub', flags: 'sub' },
  And: { op: 'and', flags: 'logic' },
  Or: { op: 'or', flags: 'logic' },
  Xor: { op: 'xor', flags: 'logic' },
};
const SHIFTS: Record<string, 'shl' | 'shr' | 'sar' | 'rol' | 'ror'> = {
  Shl: 'shl',
  Sal: 'shl',
  Shr: 'shr',
  Sar: 'sar',
  Rol: 'rol',
  Ror: 'ror',
};
const SCALAR_FP: Record<string, { op: 'fadd' | 'fsub' | 'fmul' | 'fdiv'; w: number }> = {
  Addss: { op: 'fadd', w: 4 },
  Addsd: { op: 'fadd', w: 8 },
  Subss: { op: 'fsub', w: 4 },
  Subsd: { op: 'fsub', w: 8 },
  Mulss: { op: 'fmul', w: 4 },
  Mulsd: { op: 'fmul', w: 8 },
  Divss: { op: 'fdiv', w: 4 },
  Divsd: { op: 'fdiv', w: 8 },
};
/** Moves that copy their source whole into the destination (scalar moves from memory zero the rest). */
const MOVES = new Set([
  'Mov',
  'Movaps',
  'Movups',
  'Movapd',
  'Movupd',
  'Movdqa',
  'Movdqu',
  'Lddqu',
  'Vmovaps',
  'Vmovups',
  'Vmovdqa',
  'Vmovdqu',
]);
/** Bitwise operations on whole 16-byte registers (float sign masks: fabs is andps with 0x7fffffff). */
const VECTOR_LOGIC: Record<string, { op: 'and' | 'or' | 'xor'; not?: true }> = {
  Andps: { op: 'and' },
  Andpd: { op: 'and' },
  Pand: { op: 'and' },
  Orps: { op: 'or' },
  Orpd: { op: 'or' },
  Por: { op: 'or' },
  Xorps: { op: 'xor' },
  Xorpd: { op: 'xor' },
  Pxor: { op: 'xor' },
  Andnps: { op: 'and', not: true },
  Andnpd: { op: 'and', not: true },
  Pandn: { op: 'and', not: true },
};
/** Packed-integer lane operations, unpacks and shifts the decompiler states (runtime.ts names them). */
const LANES = new Set([
  'paddb',
  'paddw',
  'paddd',
  'paddq',
  'psubb',
  'psubw',
  'psubd',
  'psubq',
  'pcmpeqb',
  'pcmpeqw',
  'pcmpeqd',
  'pcmpgtb',
  'pcmpgtw',
  'pcmpgtd',
  'pmuludq',
  'pmulld',
  'pminub',
  'pmaxub',
  'pminsw',
  'pmaxsw',
  'punpcklbw',
  'punpcklwd',
  'punpckldq',
  'punpcklqdq',
  'punpckhbw',
  'punpckhwd',
  'punpckhdq',
  'punpckhqdq',
  'unpcklps',
  'unpckhps',
  'unpcklpd',
  'unpckhpd',
  'psllw',
  'pslld',
  'psllq',
  'psrlw',
  'psrld',
  'psrlq',
  'psraw',
  'psrad',
  'pslldq',
  'psrldq',
]);
/** Shuffles by an immediate. */
const SHUFFLES = new Set(['pshufd', 'pshuflw', 'pshufhw', 'shufps']);
const SCALAR_MOVES: Record<string, number> = { Movss: 4, Movsd: 8, Movd: 4, Movq: 8, Vmovss: 4, Vmovsd: 8 };
const NOTHING = new Set(['Nop', 'Endbr64', 'Endbr32', 'Pause', 'Prefetchnta', 'Prefetcht0', 'Prefetcht1', 'Lfence']);

const HANDLERS: Record<string, Handler> = {
  // `lea eax, [rdi+1]` is 32-bit arithmetic on edi: the address is computed at the destination's width.
  Lea: (x, out) => x.write(0, x.address(Math.min(x.width(0), x.word)), out),
  Movzx: (x, out) => x.write(0, un('zext', x.read(1), x.width(0)), out),
  Movsx: (x, out) => x.write(0, un('sext', x.read(1), x.width(0)), out),
  Movsxd: (x, out) => x.write(0, un('sext', x.read(1), x.width(0)), out),
  Cmp: (x, out) => x.setFlags('sub', x.read(0), x.read(1), out),
  Test: (x, out) => x.setFlags('and', x.read(0), x.read(1), out),
  Inc: (x, out) => x.alu('add', 'add', x.read(0), konst(1, x.width(0)), out),
  Dec: (x, out) => x.alu('sub', 'sub', x.read(0), konst(1, x.width(0)), out),
  Neg: (x, out) => x.alu('sub', 'sub', konst(0, x.width(0)), x.read(0), out),
  Not: (x, out) => x.write(0, un('not', x.read(0), x.width(0)), out),
  Imul: (x, out) => x.imul(out),
  Push: (x, out) => x.push(x.read(0), out),
  Pop: (x, out) => x.pop(out),
  Leave: (x, out) => x.leave(out),
  Cdqe: (x, out) => x.setReg(R.ax, un('sext', reg(R.ax, 4), 8), out),
  Cwde: (x, out) => x.setReg(R.ax, un('zext', un('sext', reg(R.ax, 2), 4), x.word), out),
  Cqo: (x, out) => x.setReg(R.dx, bin('sar', reg(R.ax, 8), konst(63, 8)), out),
  Cdq: (x, out) => x.setReg(R.dx, un('zext', bin('sar', reg(R.ax, 4), konst(31, 4)), x.word), out),
  Cbw: (x, out) => x.writeSlot({ r: R.ax, w: 2, hi: false }, un('sext', reg(R.ax, 1), 2), out),
  Scasb: (x, out) => x.stringScan(out),
  Scasw: (x, out) => x.stringScan(out),
  Scasd: (x, out) => x.stringScan(out),
  Scasq: (x, out) => x.stringScan(out),
  Lodsb: (x, out) => x.stringLoad(out),
  Lodsw: (x, out) => x.stringLoad(out),
  Lodsd: (x, out) => x.stringLoad(out),
  Lodsq: (x, out) => x.stringLoad(out),
  Loop: (x, out) => x.loop(null, out),
  Loope: (x, out) => x.loop('eq', out),
  Loopne: (x, out) => x.loop('ne', out),
  Enter: (x, out) => x.enter(out),
  Stosb: (x, out) => x.repStore(out),
  Stosw: (x, out) => x.repStore(out),
  Stosd: (x, out) => x.repStore(out),
  Stosq: (x, out) => x.repStore(out),
  Movsb: (x, out) => x.stringMove(out),
  Movsw: (x, out) => x.stringMove(out),
  Movsq: (x, out) => x.stringMove(out),
  Tzcnt: (x, out) => x.bitCount('tzcnt', out),
  Bsf: (x, out) => x.bitCount('tzcnt', out),
  Lzcnt: (x, out) => x.bitCount('lzcnt', out),
  Bsr: (x, out) => x.bitCount('bsr', out),
  Popcnt: (x, out) => x.bitCount('popcnt', out),
  Bswap: (x, out) => x.write(0, { k: 'op', name: 'bswap', args: [x.read(0)], w: x.width(0) }, out),
  Mul: (x, out) => x.widening('mulhu', out),
  Bt: (x, out) => x.setFlags('bit', x.read(0), x.read(1, x.width(0)), out),
  Bts: (x, out) => x.bitChange('or', out),
  Btr: (x, out) => x.bitChange('and', out),
  Btc: (x, out) => x.bitChange('xor', out),
  Idiv: (x, out) => x.divide('sdiv', 'srem', out),
  Div: (x, out) => x.divide('udiv', 'urem', out),
  Adc: (x, out) => x.withCarry('add', out),
  Sbb: (x, out) => x.withCarry('sub', out),
  Call: (x, out) => x.call(out),
  Ret: (x, out) => out.push({ k: 'ret', reads: [], pop: x.opCount > 0 ? Number(x.insn.immediate(0)) : 0, at: x.at }),
  Jmp: (x, out) => out.push({ k: 'jump', target: x.target(), at: x.at }),
  Xchg: (x, out) => x.xchg(out),
  Ucomiss: (x, out) => x.setFlags('fcmp', x.read(0, 4), x.read(1, 4), out),
  Ucomisd: (x, out) => x.setFlags('fcmp', x.read(0, 8), x.read(1, 8), out),
  Comiss: (x, out) => x.setFlags('fcmp', x.read(0, 4), x.read(1, 4), out),
  Comisd: (x, out) => x.setFlags('fcmp', x.read(0, 8), x.read(1, 8), out),
  Cvtsi2sd: (x, out) => x.scalar(8, un('itof', x.read(1), 8), out),
  Cvtsi2ss: (x, out) => x.scalar(4, un('itof', x.read(1), 4), out),
  Cvttsd2si: (x, out) => x.write(0, un('ftoi', x.read(1, 8), x.width(0)), out),
  Cvttss2si: (x, out) => x.write(0, un('ftoi', x.read(1, 4), x.width(0)), out),
  Cvtsd2si: (x, out) => x.write(0, un('ftoi', x.read(1, 8), x.width(0)), out),
  Cvtss2sd: (x, out) => x.scalar(8, un('fconv', x.read(1, 4), 8), out),
  Cvtsd2ss: (x, out) => x.scalar(4, un('fconv', x.read(1, 8), 4), out),
};

export class X86Lifter implements Lifter, X87Operands {
  private readonly iced: X86Decoder['iced'];
  private readonly slots: (RegisterSlot | null)[];
  private readonly mnemonics: string[] = [];
  private readonly conditions: string[] = [];
  private readonly memorySizes: number[] = [];
  readonly word: 4 | 8;
  insn!: Iced.Instruction;
  at = 0;
  opCount = 0;
  afterFldcw = false;
  /** Where the instruction after the last fldcw lifted starts. */
  private fldcwNext = -1;

  constructor(private readonly decoder: X86Decoder) {
    this.iced = decoder.iced;
    this.word = decoder.mode === 'x86_64' ? 8 : 4;
    this.slots = icedRegisterSlots(this.iced);
    for (const [name, v] of Object.entries(this.iced.Mnemonic)) if (typeof v === 'number') this.mnemonics[v] = name;
    for (const [name, v] of Object.entries(this.iced.ConditionCode))
      if (typeof v === 'number') this.conditions[v] = name;
    for (const [name, v] of Object.entries(this.iced.MemorySize))
      if (typeof v === 'number') this.memorySizes[v] = bytesOf(name);
  }

  lift(bytes: Uint8Array, offset: number, vaddr: number, out: Stmt[]): number {
    const insn = this.decoder.full(bytes, offset, vaddr);
    if (!insn) return 0;
    this.insn = insn;
    this.at = vaddr;
    this.opCount = insn.opCount;
    const m = this.mnemonics[insn.mnemonic] ?? '';
    const cc = this.conditions[insn.conditionCode] ?? 'None';
    this.afterFldcw = this.fldcwNext === vaddr;
    this.fldcwNext = m === 'Fldcw' ? vaddr + insn.length : -1;
    if (NOTHING.has(m)) return insn.length;
    if (m.startsWith('F') && liftX87(this, m, out)) return insn.length;
    if (cc !== 'None' && this.liftConditional(m, CONDITIONS[cc]!, out)) return insn.length;
    const handler = HANDLERS[m];
    if (handler) handler(this, out);
    else if (!this.liftFamily(m, out)) this.generic(m, out);
    return insn.length;
  }

  /** jcc, setcc, cmovcc. */
  private liftConditional(m: string, cc: Cond, out: Stmt[]): boolean {
    const c: Expr = { k: 'cond', cc, flags: reg(FLAGS, this.word), w: 1 };
    if (m.startsWith('J') && this.insn.isJccShortOrNear) {
      out.push({ k: 'branch', c, at: this.at });
      return true;
    }
    if (m.startsWith('Set')) {
      this.write(0, c, out);
      return true;
    }
    if (m.startsWith('Cmov')) {
      const w = this.width(0);
      this.write(0, { k: 'select', c, a: this.read(1), b: this.read(0), w }, out);
      return true;
    }
    return false;
  }

  /** Families keyed by tables: ALU ops, shifts, moves, scalar floating point, zeroing idioms. */
  private liftFamily(m: string, out: Stmt[]): boolean {
    const alu = ALU[m];
    if (alu) {
      if ((alu.op === 'xor' || alu.op === 'sub') && this.sameRegisters()) {
        this.write(0, konst(0, this.width(0)), out);
        this.setFlags('logic', konst(0, this.width(0)), konst(0, this.width(0)), out);
      } else this.alu(alu.op, alu.flags, this.read(0), this.read(1), out);
      return true;
    }
    const shift = SHIFTS[m];
    if (shift) {
      const w = this.width(0);
      const count = this.opCount > 1 ? this.read(1, 1) : konst(1, 1);
      const result = bin(shift, this.read(0), un('zext', count, w), w);
      this.setFlags('shift', result, count, out);
      this.write(0, result, out);
      return true;
    }
    if ((m === 'Shld' || m === 'Shrd') && this.opCount === 3) {
      this.doubleShift(m === 'Shld', out);
      return true;
    }
    if (MOVES.has(m)) {
      this.write(0, this.read(1), out);
      return true;
    }
    // movsd is also the string move (its operands es:[rdi] and [rsi]).
    if (
      m === 'Movsd' &&
      this.insn.opKind(0) !== this.iced.OpKind.Register &&
      this.insn.opKind(0) !== this.iced.OpKind.Memory
    ) {
      this.stringMove(out);
      return true;
    }
    const scalar = SCALAR_MOVES[m];
    if (scalar && this.opCount === 2) {
      this.scalarMove(scalar, out);
      return true;
    }
    const fp = SCALAR_FP[m];
    if (fp && this.opCount === 2) {
      this.scalar(fp.w, bin(fp.op, this.read(0, fp.w), this.read(1, fp.w), fp.w), out);
      return true;
    }
    if ((m === 'Pxor' || m === 'Xorps' || m === 'Xorpd') && this.sameRegisters()) {
      this.write(0, konst(0, 16), out);
      return true;
    }
    const logic = VECTOR_LOGIC[m];
    if (logic && this.opCount === 2) {
      // andnps/pandn: the destination inverted, then and.
      const a = logic.not ? un('not', this.read(0, 16), 16) : this.read(0, 16);
      this.write(0, bin(logic.op, a, this.read(1, 16), 16), out);
      return true;
    }
    return this.packed(m, out);
  }

  /**
   * SSE2 integer lanes, shuffles and unpacks: an op named by the mnemonic over explicit operands — the
   * destination and source (two-operand forms), or the source and immediate (pshufd, pshuflw, pshufhw),
   * with the immediate or shift count last — so the decompiler can state each.
   */
  private packed(m: string, out: Stmt[]): boolean {
    const name = m.toLowerCase();
    const { OpKind } = this.iced;
    const imm =
      this.opCount === 3 && isImmediate(this.iced, this.insn.opKind(2)) ? konst(this.insn.immediate(2), 1) : null;
    if (SHUFFLES.has(name) && imm) {
      const args = name === 'shufps' ? [this.read(0, 16), this.read(1, 16), imm] : [this.read(1, 16), imm];
      this.write(0, { k: 'op', name, args, w: 16 }, out);
      return true;
    }
    if (LANES.has(name) && this.opCount === 2 && this.width(0) === 16) {
      // Shifts by an immediate take it as the count; by a register, its low quadword.
      const src = isImmediate(this.iced, this.insn.opKind(1)) ? konst(this.insn.immediate(1), 16) : this.read(1, 16);
      this.write(0, { k: 'op', name, args: [this.read(0, 16), src], w: 16 }, out);
      return true;
    }
    if ((name === 'movhps' || name === 'movhpd' || name === 'movlps' || name === 'movlpd') && this.opCount === 2) {
      const high = name.startsWith('movh');
      if (this.insn.opKind(0) === OpKind.Memory) {
        const v: Expr = high ? { k: 'op', name: 'gethi', args: [this.read(1, 16)], w: 8 } : this.read(1, 8);
        this.write(0, v, out);
      } else
        this.write(
          0,
          { k: 'op', name: high ? 'sethi' : 'setlo', args: [this.read(0, 16), this.read(1, 8)], w: 16 },
          out,
        );
      return true;
    }
    if ((name === 'movhlps' || name === 'movlhps') && this.opCount === 2) {
      this.write(0, { k: 'op', name, args: [this.read(0, 16), this.read(1, 16)], w: 16 }, out);
      return true;
    }
    return this.packedMore(name, imm, out);
  }

  /**
   * More SSE2: to a general register (pmovmskb: the bytes' sign bits; pextrw: a word), into a vector
   * (pinsrw), and two-lane double operations (subpd, shufpd, cvtdq2pd, cmpsd with its predicate, packuswb).
   */
  private packedMore(name: string, imm: Expr | null, out: Stmt[]): boolean {
    const vector = (i: number) => this.insn.opKind(i) !== this.iced.OpKind.Register || this.width(i) === 16;
    if (name === 'pmovmskb' && this.opCount === 2 && !vector(0) && this.width(1) === 16) {
      this.write(0, un('zext', { k: 'op', name, args: [this.read(1, 16)], w: 4 }, this.width(0)), out);
      return true;
    }
    if (name === 'pextrw' && imm && !vector(0) && this.width(1) === 16) {
      this.write(0, un('zext', { k: 'op', name, args: [this.read(1, 16), imm], w: 4 }, this.width(0)), out);
      return true;
    }
    if (name === 'pinsrw' && imm) {
      this.write(0, { k: 'op', name, args: [this.read(0, 16), this.read(1, 2), imm], w: 16 }, out);
      return true;
    }
    if ((name === 'shufpd' || name === 'cmpsd') && imm && this.opCount === 3) {
      const b = name === 'cmpsd' ? this.read(1, 8) : this.read(1, 16);
      this.write(0, { k: 'op', name, args: [this.read(0, 16), b, imm], w: 16 }, out);
      return true;
    }
    if ((name === 'subpd' || name === 'packuswb') && this.opCount === 2 && this.width(0) === 16) {
      this.write(0, { k: 'op', name, args: [this.read(0, 16), this.read(1, 16)], w: 16 }, out);
      return true;
    }
    if (name === 'cvtdq2pd' && this.opCount === 2) {
      this.write(0, { k: 'op', name, args: [this.read(1, 8)], w: 16 }, out);
      return true;
    }
    if ((name === 'cvttpd2dq' || name === 'cvttps2dq') && this.opCount === 2) {
      this.write(0, { k: 'op', name, args: [this.read(1, 16)], w: 16 }, out);
      return true;
    }
    if ((name === 'minsd' || name === 'maxsd') && this.opCount === 2) {
      this.write(0, { k: 'op', name, args: [this.read(0, 16), this.read(1, 8)], w: 16 }, out);
      return true;
    }
    return false;
  }

  // ---- operands --------------------------------------------------------------------------------------

  stIndex(i: number): number | null {
    if (this.insn.opKind(i) !== this.iced.OpKind.Register) return null;
    const s = this.slots[this.insn.opRegister(i)];
    return s && s.r >= ST0 && s.r < ST0 + 8 ? s.r - ST0 : null;
  }

  memory(): { addr: Expr; w: number } {
    return { addr: this.address(), w: this.memorySizes[this.insn.memorySize] || this.word };
  }

  condition(): Expr | null {
    const cc = CONDITIONS[this.conditions[this.insn.conditionCode] ?? 'None'];
    return cc ? { k: 'cond', cc, flags: reg(FLAGS, this.word), w: 1 } : null;
  }

  flags(a: Expr, b: Expr, out: Stmt[]): void {
    this.setFlags('fcmp', a, b, out);
  }

  private sameRegisters(): boolean {
    const { OpKind } = this.iced;
    const i = this.insn;
    return i.opKind(0) === OpKind.Register && i.opKind(1) === OpKind.Register && i.opRegister(0) === i.opRegister(1);
  }

  /** Width in bytes of operand `i` (a memory operand's access size; an immediate takes operand 0's). */
  width(i: number): number {
    const { OpKind } = this.iced;
    const k = this.insn.opKind(i);
    if (k === OpKind.Register) return this.slots[this.insn.opRegister(i)]?.w ?? this.word;
    if (k === OpKind.Memory) return this.memorySizes[this.insn.memorySize] || this.word;
    if (i > 0 && isImmediate(this.iced, k)) return this.width(0);
    return this.word;
  }

  /** Operand `i` as a value of `w` bytes (its own width by default). */
  read(i: number, w = this.width(i)): Expr {
    const { OpKind } = this.iced;
    const k = this.insn.opKind(i);
    if (k === OpKind.Register) return this.readRegister(this.insn.opRegister(i), w);
    if (k === OpKind.Memory) return load(this.address(), w);
    if (isImmediate(this.iced, k)) return konst(this.insn.immediate(i), w);
    if (isBranch(this.iced, k)) return konst(this.insn.nearBranchTarget, this.word);
    return konst(0, w);
  }

  private readRegister(icedReg: number, w: number): Expr {
    const s = this.slots[icedReg];
    if (!s) return konst(0, w);
    if (s.hi) return un('trunc', bin('shr', reg(s.r, 2), konst(8, 2)), 1);
    return w <= s.w || s.w === 16 ? reg(s.r, w) : un('zext', reg(s.r, s.w), w);
  }

  /** The memory operand's address: base + index × scale + displacement (+ fs/gs base), `aw` bytes wide. */
  address(aw: number = this.word): Expr {
    const i = this.insn;
    const { Register } = this.iced;
    let e: Expr | null = null;
    const add = (x: Expr) => (e = e ? bin('add', e, x, aw) : x);
    if (i.memoryBase === Register.RIP || i.memoryBase === Register.EIP) return ref(i.memoryDisplacement, aw); // iced resolves it against the instruction's address
    if (i.memoryBase !== Register.None) add(this.readRegister(i.memoryBase, aw));
    if (i.memoryIndex !== Register.None) {
      const index = this.readRegister(i.memoryIndex, aw);
      add(i.memoryIndexScale === 1 ? index : bin('mul', index, konst(i.memoryIndexScale, aw), aw));
    }
    const disp = BigInt.asIntN(aw * 8, i.memoryDisplacement);
    if (disp !== 0n || !e) add(konst(disp, aw));
    if (i.memorySegment === Register.FS) add(reg(FS_BASE, aw));
    else if (i.memorySegment === Register.GS) add(reg(GS_BASE, aw));
    return e!;
  }

  /** The transfer target: a constant for direct branches, the operand read otherwise. */
  target(): Expr {
    return this.read(0, this.word);
  }

  // ---- effects ---------------------------------------------------------------------------------------

  /** Operand `i` ← `v`: a store, or a register write (32-bit writes zero the upper half on x86-64). */
  write(i: number, v: Expr, out: Stmt[]): void {
    const { OpKind } = this.iced;
    const k = this.insn.opKind(i);
    if (k === OpKind.Memory) {
      out.push({ k: 'store', addr: this.address(), v, w: v.w, at: this.at });
      return;
    }
    if (k !== OpKind.Register) return;
    const s = this.slots[this.insn.opRegister(i)];
    if (!s) return;
    this.writeSlot(s, v, out);
  }

  writeSlot(s: RegisterSlot, v: Expr, out: Stmt[]): void {
    const full = s.w === 16 ? 16 : this.word;
    let e: Expr;
    // ah, bh, ch, dh: bits 8-15 of the register replaced.
    if (s.hi)
      e = bin('or', bin('and', reg(s.r, full), konst(~0xff00n, full)), bin('shl', un('zext', v, full), konst(8, full)));
    else if (v.w >= full) e = v.w === full ? v : un('trunc', v, full);
    else if (s.w === 4 && full === 8) e = un('zext', v, 8);
    else e = bin('deposit', reg(s.r, full), v, full);
    out.push({ k: 'set', r: s.r, ver: -1, e, at: this.at });
  }

  setReg(r: number, e: Expr, out: Stmt[]): void {
    out.push({ k: 'set', r, ver: -1, e, at: this.at });
  }

  setFlags(op: FlagOp, a: Expr, b: Expr, out: Stmt[]): void {
    out.push({ k: 'set', r: FLAGS, ver: -1, e: { k: 'flags', op, a, b, w: a.w }, at: this.at });
  }

  alu(op: 'add' | 'sub' | 'and' | 'or' | 'xor', flags: FlagOp, a: Expr, b: Expr, out: Stmt[]): void {
    const w = this.width(0);
    // Flags first: both statements read the operands' values from before the instruction. A logic
    // operation's flags are those of its result (zero, sign, parity; carry and overflow clear).
    if (flags === 'logic') this.setFlags('logic', bin(op, a, b, w), konst(0, w), out);
    else this.setFlags(flags, a, b, out);
    this.write(0, bin(op, a, b, w), out);
  }

  /**
   * idiv/div r/m16-64: quotient to rax, remainder to rdx. The dividend is taken to be rax extended (what C
   * compiles to: cqo/cdq before idiv, a zeroed rdx before div); byte division (al/ah) stays an op.
   */
  divide(q: 'sdiv' | 'udiv', r: 'srem' | 'urem', out: Stmt[]): void {
    const w = this.width(0);
    if (w < 2) {
      this.generic(q === 'sdiv' ? 'Idiv' : 'Div', out);
      return;
    }
    const [a, d] = [reg(R.ax, w), this.read(0)];
    this.setReg(TEMP, bin(q, a, d, w), out);
    this.writeSlot({ r: R.dx, w, hi: false }, bin(r, a, d, w), out);
    this.writeSlot({ r: R.ax, w, hi: false }, reg(TEMP, w), out);
    this.setFlags('other', reg(TEMP, w), konst(0, w), out);
  }

  /**
   * rep stos (memset as -O0 code zeroes arrays): an effect named `rep_stos<width>` reading the destination,
   * the count and the value, in that order, and writing the destination and count registers.
   */
  repStore(out: Stmt[]): void {
    const w = this.width(1);
    if (!this.insn.hasRepPrefix) {
      // One stos: the accumulator to [rdi], which moves past it.
      out.push({ k: 'store', addr: reg(R.di, this.word), v: reg(R.ax, w), w, at: this.at });
      this.setReg(R.di, bin('add', reg(R.di, this.word), konst(w, this.word)), out);
      return;
    }
    const reads = [reg(R.di, this.word), reg(R.cx, this.word), reg(R.ax, w)];
    out.push({ k: 'effect', name: `rep_stos${w}`, reads, writes: [R.di, R.cx], vers: [-1, -1], at: this.at });
  }

  /**
   * movs (memcpy as -O0 code copies structures): an effect named `movs<width>` reading the destination,
   * source and count (rcx with rep, else 1) and writing the pointers (and rcx with rep) as they end.
   */
  stringMove(out: Stmt[]): void {
    const w = this.memorySizes[this.insn.memorySize] || 1;
    const rep = this.insn.hasRepPrefix;
    const reads = [reg(R.di, this.word), reg(R.si, this.word), rep ? reg(R.cx, this.word) : konst(1, this.word)];
    const writes = rep ? [R.di, R.si, R.cx] : [R.di, R.si];
    out.push({ k: 'effect', name: `movs${w}`, reads, writes, vers: writes.map(() => -1), at: this.at });
  }

  /** lods (without rep): the accumulator from [rsi], which then moves past it (the ABI clears the direction flag). */
  stringLoad(out: Stmt[]): void {
    const w = this.memorySizes[this.insn.memorySize] || 1;
    if (this.insn.hasRepPrefix) {
      this.generic(this.mnemonics[this.insn.mnemonic] ?? 'lods', out);
      return;
    }
    this.writeSlot({ r: R.ax, w, hi: false }, load(reg(R.si, this.word), w), out);
    this.setReg(R.si, bin('add', reg(R.si, this.word), konst(w, this.word)), out);
  }

  /** scas (without a repeat prefix): the accumulator compared with [rdi], which then moves past it. */
  stringScan(out: Stmt[]): void {
    const w = this.memorySizes[this.insn.memorySize] || 1;
    if (this.insn.hasRepPrefix || this.insn.hasRepnePrefix) {
      this.generic(this.mnemonics[this.insn.mnemonic] ?? 'scas', out);
      return;
    }
    this.setFlags('sub', reg(R.ax, w), load(reg(R.di, this.word), w), out);
    this.setReg(R.di, bin('add', reg(R.di, this.word), konst(w, this.word)), out);
  }

  /** loop, loope, loopne: the counter decremented, then a branch while it is not zero (and ZF is as named). */
  loop(zf: 'eq' | 'ne' | null, out: Stmt[]): void {
    const w = this.word;
    this.setReg(R.cx, bin('sub', reg(R.cx, w), konst(1, w)), out);
    const nonzero: Expr = {
      k: 'cond',
      cc: 'ne',
      flags: { k: 'flags', op: 'sub', a: reg(R.cx, w), b: konst(0, w), w },
      w: 1,
    };
    const c = zf ? bin('and', nonzero, { k: 'cond', cc: zf, flags: reg(FLAGS, this.word), w: 1 }, 1) : nonzero;
    out.push({ k: 'branch', c, at: this.at });
  }

  /** enter n, 0: the frame pointer pushed and set, n bytes reserved; nested frames stay an op. */
  enter(out: Stmt[]): void {
    if (this.insn.immediate(1) !== 0n) {
      this.generic('Enter', out);
      return;
    }
    const w = this.word;
    this.push(reg(R.bp, w), out);
    this.setReg(R.bp, reg(R.sp, w), out);
    this.setReg(R.sp, bin('sub', reg(R.sp, w), konst(this.insn.immediate(0), w)), out);
  }

  /**
   * tzcnt/bsf, lzcnt, bsr, popcnt: an op of that name over the source (bsf of 0 leaves the destination
   * undefined; the op gives tzcnt's answer). Flags from the result are not modelled.
   */
  bitCount(name: 'tzcnt' | 'lzcnt' | 'bsr' | 'popcnt', out: Stmt[]): void {
    const w = this.width(0);
    const v: Expr = { k: 'op', name, args: [this.read(1, w)], w };
    this.setReg(TEMP, v, out);
    this.setFlags('other', reg(TEMP, w), konst(0, w), out);
    this.write(0, reg(TEMP, w), out);
  }

  /**
   * bts/btr/btc: the bit's old value to the carry (as bt), then the bit set, cleared or flipped. A memory
   * operand with a register bit offset addresses a bit string beyond the operand: left to generic().
   */
  bitChange(op: 'or' | 'and' | 'xor', out: Stmt[]): void {
    const { OpKind } = this.iced;
    const m = this.mnemonics[this.insn.mnemonic]!;
    if (this.insn.opKind(0) === OpKind.Memory && this.insn.opKind(1) === OpKind.Register) return this.generic(m, out);
    const w = this.width(0);
    const bit = this.read(1, w);
    this.setReg(TEMP, this.read(0), out);
    this.setFlags('bit', reg(TEMP, w), bit, out);
    const mask = bin('shl', konst(1, w), bin('and', bit, konst(w * 8 - 1, w)));
    this.write(0, bin(op, reg(TEMP, w), op === 'and' ? un('not', mask, w) : mask), out);
  }

  /**
   * One-operand mul/imul: rax × the operand, the low half to rax and the high half (op `mulhu`/`mulhs` over
   * the two) to rdx; byte multiplication (ax) stays an op.
   */
  widening(high: 'mulhu' | 'mulhs', out: Stmt[]): void {
    const w = this.width(0);
    if (w < 2) {
      this.generic(high === 'mulhu' ? 'Mul' : 'Imul', out);
      return;
    }
    const [a, b] = [reg(R.ax, w), this.read(0)];
    this.setReg(TEMP, { k: 'op', name: high, args: [a, b], w }, out);
    this.setFlags('other', reg(TEMP, w), konst(0, w), out);
    this.writeSlot({ r: R.ax, w, hi: false }, bin('mul', a, b, w), out);
    this.writeSlot({ r: R.dx, w, hi: false }, reg(TEMP, w), out);
  }

  /** adc/sbb: the operation with the carry flag added or subtracted (`sbb eax, eax` is -CF). */
  withCarry(op: 'add' | 'sub', out: Stmt[]): void {
    const w = this.width(0);
    const carry = un('zext', { k: 'cond', cc: 'ult', flags: reg(FLAGS, this.word), w: 1 }, w);
    const v = bin(op, bin(op, this.read(0), this.read(1), w), carry, w);
    this.setReg(TEMP, v, out);
    this.setFlags('other', reg(TEMP, w), konst(0, w), out);
    this.write(0, reg(TEMP, w), out);
  }

  /** A scalar floating-point result into the low `w` bytes of the destination xmm register. */
  scalar(w: number, v: Expr, out: Stmt[]): void {
    const s = this.slots[this.insn.opRegister(0)];
    if (s) out.push({ k: 'set', r: s.r, ver: -1, e: bin('deposit', reg(s.r, 16), v, 16), at: this.at });
  }

  /** movss/movsd/movd/movq: from memory or a general register the rest is zeroed; between xmm registers merged. */
  private scalarMove(w: number, out: Stmt[]): void {
    const { OpKind } = this.iced;
    const i = this.insn;
    if (i.opKind(0) !== OpKind.Register) {
      this.write(0, this.read(1, w), out);
      return;
    }
    const dst = this.slots[i.opRegister(0)];
    if (!dst) return;
    const src = this.read(1, w);
    const fromXmm = i.opKind(1) === OpKind.Register && (this.slots[i.opRegister(1)]?.w ?? 0) === 16;
    if (dst.w !== 16) this.writeSlot(dst, src, out);
    else if (fromXmm && (this.mnemonics[i.mnemonic] === 'Movss' || this.mnemonics[i.mnemonic] === 'Movsd'))
      out.push({ k: 'set', r: dst.r, ver: -1, e: bin('deposit', reg(dst.r, 16), src, 16), at: this.at });
    else out.push({ k: 'set', r: dst.r, ver: -1, e: un('zext', src, 16), at: this.at });
  }

  imul(out: Stmt[]): void {
    if (this.opCount === 1) {
      this.widening('mulhs', out);
      return;
    }
    const w = this.width(0);
    const [a, b] = this.opCount === 2 ? [this.read(0), this.read(1)] : [this.read(1), this.read(2, w)];
    this.setFlags('mul', a, b, out);
    this.write(0, bin('mul', a, b, w), out);
  }

  push(v: Expr, out: Stmt[]): void {
    const w = this.word;
    let value = v.w === w ? v : un('sext', v, w);
    // `push [esp+8]` reads its operand before the stack pointer moves.
    if (readsRegister(value, R.sp)) {
      this.setReg(TEMP, value, out);
      value = reg(TEMP, w);
    }
    out.push({ k: 'set', r: R.sp, ver: -1, e: bin('sub', reg(R.sp, w), konst(w, w)), at: this.at });
    out.push({ k: 'store', addr: reg(R.sp, w), v: value, w, at: this.at });
  }

  pop(out: Stmt[]): void {
    const w = this.word;
    const v = load(reg(R.sp, w), w);
    const { OpKind } = this.iced;
    // The value is read before the stack pointer moves; a register destination takes it after.
    if (this.insn.opKind(0) === OpKind.Register) {
      const s = this.slots[this.insn.opRegister(0)];
      out.push({ k: 'set', r: R.sp, ver: -1, e: bin('add', reg(R.sp, w), konst(w, w)), at: this.at });
      if (s) out.push({ k: 'set', r: s.r, ver: -1, e: load(bin('sub', reg(R.sp, w), konst(w, w)), w), at: this.at });
      return;
    }
    this.write(0, v, out);
    out.push({ k: 'set', r: R.sp, ver: -1, e: bin('add', reg(R.sp, w), konst(w, w)), at: this.at });
  }

  leave(out: Stmt[]): void {
    const w = this.word;
    out.push({ k: 'set', r: R.sp, ver: -1, e: reg(R.bp, w), at: this.at });
    out.push({ k: 'set', r: R.bp, ver: -1, e: load(reg(R.sp, w), w), at: this.at });
    out.push({ k: 'set', r: R.sp, ver: -1, e: bin('add', reg(R.sp, w), konst(w, w)), at: this.at });
  }

  call(out: Stmt[]): void {
    out.push({ k: 'call', target: this.target(), args: [], writes: [], vers: [], at: this.at, tail: false });
  }

  xchg(out: Stmt[]): void {
    if (this.sameRegisters()) return; // `xchg ax, ax` is a nop
    const w = this.width(0);
    this.setReg(TEMP, this.read(0), out);
    this.write(0, this.read(1), out);
    this.write(1, reg(TEMP, w), out);
  }

  /**
   * Any other instruction: an `op` named by its mnemonic over every register and memory operand iced says
   * it reads, written to every register and memory operand it writes; system calls and traps as effects.
   */
  generic(m: string, out: Stmt[]): void {
    const { OpAccess, Register } = this.iced;
    const used = infoFactory(this.iced).info(this.insn);
    const reading = (a: number) =>
      a === OpAccess.Read || a === OpAccess.CondRead || a === OpAccess.ReadWrite || a === OpAccess.ReadCondWrite;
    const writing = (a: number) =>
      a === OpAccess.Write || a === OpAccess.CondWrite || a === OpAccess.ReadWrite || a === OpAccess.ReadCondWrite;
    const reads: Expr[] = [];
    const writes: RegisterSlot[] = [];
    for (const u of used.usedRegisters()) {
      const s = this.slots[u.register];
      // The stack pointer's own movement is modelled by push/pop/call; elsewhere it is an address base.
      if (!s || u.register === Register.RSP || u.register === Register.ESP) continue;
      if (reading(u.access)) reads.push(reg(s.r, s.w));
      if (writing(u.access)) writes.push(s);
    }
    const memWrites: Expr[] = [];
    for (const mem of used.usedMemory()) {
      const addr = this.memoryAddress(mem);
      if (reading(mem.access)) reads.push(load(addr, this.memorySizes[mem.memorySize] || this.word));
      if (writing(mem.access)) memWrites.push(addr);
    }
    if (this.insn.rflagsRead !== 0) reads.push(reg(FLAGS, this.word));
    const name = m.toLowerCase();
    if (this.isEffect()) {
      const regs = [...new Set(writes.map((s) => s.r))];
      out.push({ k: 'effect', name, reads, writes: regs, vers: regs.map(() => -1), at: this.at });
      return;
    }
    if (writes.length + memWrites.length === 0 && this.insn.rflagsModified === 0) return;
    // The reads happen once, into a scratch register; each output is a projection of it, stores first,
    // so no output reads another's new value.
    this.setReg(TEMP, { k: 'op', name, args: reads, w: this.word }, out);
    const result = (w: number): Expr => ({ k: 'op', name: `${name}.out`, args: [reg(TEMP, this.word)], w });
    for (const addr of memWrites) out.push({ k: 'store', addr, v: result(this.word), w: this.word, at: this.at });
    if (this.insn.rflagsModified !== 0) this.setFlags('other', result(this.word), konst(0, this.word), out);
    for (const s of writes) this.writeSlot(s, result(s.w), out);
  }

  /**
   * shld/shrd: the destination shifted by the count (mod 32, or 64 for 64-bit operands), the vacated bits
   * filled from the source's other end; a zero count changes nothing. The flags are an operation's of
   * their own (no condition reads them as anything else).
   */
  private doubleShift(left: boolean, out: Stmt[]): void {
    const w = this.width(0);
    const bits = w * 8;
    const dst = this.read(0);
    const count = bin('and', un('zext', this.read(2, 1), w), konst(bits === 64 ? 63 : 31, w), w);
    const [toward, from] = left ? (['shl', 'shr'] as const) : (['shr', 'shl'] as const);
    const moved = bin(
      'or',
      bin(toward, dst, count, w),
      bin(from, this.read(1), bin('sub', konst(bits, w), count, w), w),
      w,
    );
    const zero: Expr = { k: 'cond', cc: 'eq', flags: { k: 'flags', op: 'sub', a: count, b: konst(0, w), w }, w: 1 };
    const result: Expr = { k: 'select', c: zero, a: dst, b: moved, w };
    this.setFlags('other', result, konst(0, w), out);
    this.write(0, result, out);
  }

  private isEffect(): boolean {
    const { FlowControl } = this.iced;
    const f = this.insn.flowControl;
    return (
      f === FlowControl.Interrupt || f === FlowControl.Exception || this.insn.isPrivileged || f === FlowControl.Call
    );
  }

  private memoryAddress(mem: Iced.UsedMemory): Expr {
    const { Register } = this.iced;
    const aw = this.word;
    let e: Expr = konst(BigInt.asIntN(aw * 8, mem.displacement), aw);
    if (mem.base !== Register.None) e = bin('add', this.readRegister(mem.base, aw), e, aw);
    if (mem.index !== Register.None)
      e = bin('add', e, bin('mul', this.readRegister(mem.index, aw), konst(mem.scale, aw), aw), aw);
    return e;
  }
}

function readsRegister(e: Expr, r: number): boolean {
  let found = false;
  forEachRegRead(e, (x) => (found ||= x.r === r));
  return found;
}

/** One InstructionInfoFactory per iced module: each holds WebAssembly memory, so none is made per call. */
const factories = new WeakMap<X86Decoder['iced'], Iced.InstructionInfoFactory>();
function infoFactory(iced: X86Decoder['iced']): Iced.InstructionInfoFactory {
  let f = factories.get(iced);
  if (!f) factories.set(iced, (f = new iced.InstructionInfoFactory()));
  return f;
}

function isImmediate(iced: X86Decoder['iced'], k: number): boolean {
  const K = iced.OpKind;
  return (
    k === K.Immediate8 ||
    k === K.Immediate8_2nd ||
    k === K.Immediate16 ||
    k === K.Immediate32 ||
    k === K.Immediate64 ||
    k === K.Immediate8to16 ||
    k === K.Immediate8to32 ||
    k === K.Immediate8to64 ||
    k === K.Immediate32to64
  );
}

function isBranch(iced: X86Decoder['iced'], k: number): boolean {
  const K = iced.OpKind;
  return k === K.NearBranch16 || k === K.NearBranch32 || k === K.NearBranch64;
}

/** Bytes of an iced MemorySize from its name: `UInt32` 4, `Float64` 8, `Packed128_Float32` 16, `Float80` 10. */
function bytesOf(name: string): number {
  const packed = /^Packed(\d+)_/.exec(name);
  if (packed) return Number(packed[1]) / 8;
  const bits = /(\d+)$/.exec(name);
  return bits ? Math.max(1, Number(bits[1]) / 8) : 0;
}
