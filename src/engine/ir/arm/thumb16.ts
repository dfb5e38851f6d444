// 16-bit Thumb instructions → the shared operations. Their data processing sets the flags only outside IT
// blocks (movs/adds/…; cmp, cmn and tst always do); mov, add and cmp with high registers never do (cmp
// always). Branches need nothing but cbz/cbnz's and b<c>'s conditions: the decoder's flow and target make
// the transfer.
import { konst, reg } from '../ir.js';
import type { ArmInsn } from './insn.js';
import {
  blockTransfer,
  dataProcessing,
  extend,
  loadStore,
  multiply,
  opInto,
  shiftImmediate,
  shiftRegister,
  type Access,
  type DpOp,
} from './operations.js';
import { LR, PC, SP } from './registers.js';
import { supervisorCall } from './vfp.js';

/** Data processing (register), 010000 op(9:6): lsl, lsr, asr and ror shift by a register; mul is separate. */
const REGISTER_OPS: readonly (DpOp | number)[] = [
  'and',
  'eor',
  0, // lsl
  1, // lsr
  2, // asr
  'adc',
  'sbc',
  3, // ror
  'tst',
  'rsb',
  'cmp',
  'cmn',
  'orr',
  -1, // mul
  'bic',
  'mvn',
];

/** Load/store with a register offset, 0101 op(11:9): str, strh, strb, ldrsb, ldr, ldrh, ldrb, ldrsh. */
const REGISTER_ACCESS: readonly Access[] = [
  { load: false, bytes: 4, signed: false },
  { load: false, bytes: 2, signed: false },
  { load: false, bytes: 1, signed: false },
  { load: true, bytes: 1, signed: true },
  { load: true, bytes: 4, signed: false },
  { load: true, bytes: 2, signed: false },
  { load: true, bytes: 1, signed: false },
  { load: true, bytes: 2, signed: true },
];

const low = (hw: number, shift: number) => (hw >>> shift) & 7;

export function liftThumb16(x: ArmInsn, hw: number): boolean {
  const s = !x.inIt;
  const imm8 = hw & 0xff;
  switch (hw >>> 11) {
    case 0:
    case 1:
    case 2: // LSL/LSR/ASR #imm (lsl #0 is movs)
      dataProcessing(x, 'mov', s, low(hw, 0), konst(0, 4), shiftImmediate(x.r(low(hw, 3)), hw >>> 11, (hw >>> 6) & 31));
      return true;
    case 3: {
      // ADD/SUB with a register or a 3-bit immediate
      const b = hw & 0x400 ? konst(low(hw, 6), 4) : x.r(low(hw, 6));
      dataProcessing(x, hw & 0x200 ? 'sub' : 'add', s, low(hw, 0), x.r(low(hw, 3)), b);
      return true;
    }
    case 4:
    case 5:
    case 6:
    case 7: {
      // MOV, CMP, ADD, SUB with an 8-bit immediate
      const rdn = low(hw, 8);
      const op = (['mov', 'cmp', 'add', 'sub'] as const)[(hw >>> 11) - 4]!;
      dataProcessing(x, op, s, rdn, x.r(rdn), konst(imm8, 4));
      return true;
    }
    case 8:
      return hw & 0x400 ? special(x, hw) : registerOp(x, hw, s);
    case 9: // LDR (literal)
      loadStore(x, { load: true, bytes: 4, signed: false }, low(hw, 8), PC, konst(imm8 * 4, 4), true, true, false);
      return true;
    case 10:
    case 11:
      loadStore(x, REGISTER_ACCESS[(hw >>> 9) & 7]!, low(hw, 0), low(hw, 3), x.r(low(hw, 6)), true, true, false);
      return true;
    case 12:
    case 13:
    case 14:
    case 15:
    case 16:
    case 17: {
      // STR/LDR, STRB/LDRB, STRH/LDRH with a 5-bit immediate scaled by the size
      const bytes = hw >>> 11 < 14 ? 4 : hw >>> 11 < 16 ? 1 : 2;
      const a: Access = { load: !!(hw & 0x800), bytes, signed: false };
      loadStore(x, a, low(hw, 0), low(hw, 3), konst(((hw >>> 6) & 31) * bytes, 4), true, true, false);
      return true;
    }
    case 18:
    case 19: // STR/LDR sp-relative
      loadStore(
        x,
        { load: !!(hw & 0x800), bytes: 4, signed: false },
        low(hw, 8),
        SP,
        konst(imm8 * 4, 4),
        true,
        true,
        false,
      );
      return true;
    case 20: // ADR
      x.setR(low(hw, 8), konst((x.pcAligned + imm8 * 4) >>> 0, 4));
      return true;
    case 21: // ADD Rd, sp, #imm
      dataProcessing(x, 'add', false, low(hw, 8), reg(SP, 4), konst(imm8 * 4, 4));
      return true;
    case 22:
    case 23:
      return miscellaneous(x, hw);
    case 24:
    case 25: // STMIA/LDMIA Rn! (an ldm listing its base does not write it back)
      blockTransfer(x, !!(hw & 0x800), low(hw, 8), imm8, true, false, true);
      return true;
    case 26:
    case 27: {
      const cond = (hw >>> 8) & 0xf;
      if (cond === 0xf) return supervisorCall(x);
      if (cond !== 0xe) x.branchCondition = x.condition(cond); // B<c>; UDF: the flow
      return true;
    }
    case 28:
      return true; // B
    default:
      return false;
  }
}

function registerOp(x: ArmInsn, hw: number, s: boolean): boolean {
  const rdn = low(hw, 0);
  const rm = low(hw, 3);
  const op = REGISTER_OPS[(hw >>> 6) & 0xf]!;
  if (op === -1) multiply(x, rdn, rm, rdn, null, false, s);
  else if (typeof op === 'number') dataProcessing(x, 'mov', s, rdn, konst(0, 4), shiftRegister(x, x.r(rdn), op, rm));
  else if (op === 'rsb')
    dataProcessing(x, 'rsb', s, rdn, x.r(rm), konst(0, 4)); // negs Rd, Rm
  else if (op === 'mvn') dataProcessing(x, 'mvn', s, rdn, konst(0, 4), x.r(rm));
  else dataProcessing(x, op, s, rdn, x.r(rdn), x.r(rm));
  return true;
}

/** 010001: ADD, CMP, MOV with high registers, and BX/BLX. */
function special(x: ArmInsn, hw: number): boolean {
  const rdn = ((hw >>> 4) & 8) | (hw & 7);
  const rm = (hw >>> 3) & 0xf;
  switch ((hw >>> 8) & 3) {
    case 0:
      dataProcessing(x, 'add', false, rdn, x.r(rdn), x.r(rm));
      return true;
    case 1:
      dataProcessing(x, 'cmp', true, rdn, x.r(rdn), x.r(rm));
      return true;
    case 2:
      dataProcessing(x, 'mov', false, rdn, konst(0, 4), x.r(rm));
      return true;
    default:
      x.setR(PC, x.r(rm)); // BX, BLX: the flow says which
      return true;
  }
}

/** 1011: sp adjustment, cbz/cbnz, extensions, push/pop, reversals, bkpt, IT and hints. */
function miscellaneous(x: ArmInsn, hw: number): boolean {
  if ((hw & 0xff00) === 0xb000) {
    dataProcessing(x, hw & 0x80 ? 'sub' : 'add', false, SP, reg(SP, 4), konst((hw & 0x7f) * 4, 4));
    return true;
  }
  if ((hw & 0xf500) === 0xb100) {
    // CBZ/CBNZ
    x.branchCondition = {
      k: 'cond',
      cc: hw & 0x800 ? 'ne' : 'eq',
      flags: { k: 'flags', op: 'sub', a: x.r(low(hw, 0)), b: konst(0, 4), w: 4 },
      w: 1,
    };
    return true;
  }
  if ((hw & 0xff00) === 0xb200) {
    const kind = (hw >>> 6) & 3; // sxth, sxtb, uxth, uxtb
    extend(x, low(hw, 0), null, low(hw, 3), kind & 1 ? 1 : 2, kind < 2, 0);
    return true;
  }
  if ((hw & 0xfe00) === 0xb400) {
    blockTransfer(x, false, SP, (hw & 0xff) | (hw & 0x100 ? 1 << LR : 0), false, true, true); // PUSH
    return true;
  }
  if ((hw & 0xfe00) === 0xbc00) {
    blockTransfer(x, true, SP, (hw & 0xff) | (hw & 0x100 ? 1 << PC : 0), true, false, true); // POP
    return true;
  }
  if ((hw & 0xff00) === 0xba00) {
    const name = ['rev', 'rev16', 'hlt', 'revsh'][(hw >>> 6) & 3]!;
    if (name !== 'hlt') opInto(x, low(hw, 0), name, [low(hw, 3)]);
    return true;
  }
  // BKPT (the flow), IT (the lifter's IT state), hints.
  const system = (hw & 0xffe0) === 0xb660 || (hw & 0xfff0) === 0xb650 || (hw & 0xfff7) === 0xb610; // CPS, SETEND, SETPAN
  return (hw & 0xff00) === 0xbe00 || (hw & 0xff00) === 0xbf00 || system;
}
