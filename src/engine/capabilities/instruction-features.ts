// Characteristics of single instructions, as capa defines them: xor that is not a zeroing idiom, the PEB
// read through fs/gs, and the stack-string byte stores blocks add up (indirect calls and `call $+5` are
// read from recovery's flow columns).
import type { DecoderMode, InstructionText } from '../disasm/index.js';
import { DIALECTS, isaFamily, MODE_PROFILES, type IsaFamily } from '../isa/index.js';
import { FRAME } from '../features/operand-constants.js';
import { splitOperands } from './operand-features.js';

/**
 * `xor eax, ebx` but not `xor eax, eax` (zeroing) nor the stack-cookie `xor rax, rsp`; three-operand forms
 * (`eor r0, r1, r2`, MIPS `xor`) compare their two sources.
 */
export function isNonZeroingXor(family: IsaFamily, mnemonic: string, operands: string): boolean {
  if (!DIALECTS[family].xor.test(mnemonic.toLowerCase())) return false;
  const ops = splitOperands(operands.toLowerCase());
  if (ops.some((o) => FRAME.test(o))) return false;
  const [a, b] = ops.length >= 3 ? [ops[1], ops[2]] : [ops[0], ops[1]];
  return a !== undefined && b !== undefined && a !== b;
}

/** An operand reading Windows' PEB (the ISA profile's pebAccess). */
export const isPebAccess = (mode: DecoderMode, operands: string): boolean =>
  MODE_PROFILES[mode].pebAccess?.test(operands.toLowerCase()) ?? false;

/** The characteristics an encoding has wherever it sits (the flow-dependent ones come from recovery). */
export function encodingCharacteristics(mode: DecoderMode, text: InstructionText): string[] {
  const out: string[] = [];
  if (isNonZeroingXor(isaFamily(mode), text.mnemonic, text.operands)) out.push('nzxor');
  if (isPebAccess(mode, text.operands)) out.push('peb access');
  return out;
}

const STACK_STORE = /^mov$/;
const STACK_OPERAND = /\[(r|e)?(sp|bp)\b/;
const IMMEDIATE = /^(0x[0-9a-f]+|\d+)$/;

/** Printable characters an x86 `mov [frame], imm` writes (capa's stack strings are built this way). */
export function stackStringBytes(family: IsaFamily, text: InstructionText): number {
  if (!DIALECTS[family].stackStrings || !STACK_STORE.test(text.mnemonic)) return 0;
  const [dst, src] = splitOperands(text.operands.toLowerCase());
  if (!dst || !src || !STACK_OPERAND.test(dst) || !IMMEDIATE.test(src)) return 0;
  let v = BigInt(src);
  let printable = 0;
  for (; v > 0n; v >>= 8n) {
    const c = Number(v & 0xffn);
    if (c >= 0x20 && c < 0x7f) printable++;
  }
  return printable;
}
