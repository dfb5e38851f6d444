// Numbers and offsets of one instruction's operands, as capa's rules name them: `number` (immediates),
// `offset` (memory displacements), and both again per operand index (`operand[1].number`).
import { ADDRESSING, FRAME, MEMORY } from '../features/operand-constants.js';
import { DIALECTS, type IsaFamily } from '../isa/index.js';
import { numberKey } from './feature-key.js';

const NUMBER = /(?<![\w.$*])#?(-?)(0x[0-9a-f]+|\d+)\b/g;
const RIP = /\brip\b/;

/** Operands split at top-level commas (not the ones inside `[x1, #8]` or `{r4, lr}`). */
export function splitOperands(operands: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < operands.length; i++) {
    const c = operands[i];
    if (c === '[' || c === '(' || c === '{') depth++;
    else if (c === ']' || c === ')' || c === '}') depth--;
    else if (c === ',' && depth === 0) {
      out.push(operands.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = operands.slice(start).trim();
  if (last !== '') out.push(last);
  return out;
}

/**
 * A value as rules may write it: the signed value, and for negatives the 32- and 64-bit patterns too
 * (`-1` in one rule is `0xFFFFFFFF` in another); a 32-bit pattern with the top bit set also as its
 * signed value, since x86-64 prints `0xfffffff0` where AArch64 prints `#-16`.
 */
function numberForms(negative: boolean, magnitude: bigint): bigint[] {
  const v = negative ? -magnitude : magnitude;
  if (v < 0n) return [v, BigInt.asUintN(32, v), BigInt.asUintN(64, v)];
  if (v >= 0x80000000n && v <= 0xffffffffn) return [v, BigInt.asIntN(32, v)];
  if (v >= 1n << 63n) return [v, BigInt.asIntN(64, v)];
  return [v];
}

/** Feature keys of the operands of one instruction; addresses (per `isAddress`) are not numbers. */
export function operandFeatures(
  family: IsaFamily,
  mnemonic: string,
  operands: string,
  isAddress: (v: number) => boolean,
): string[] {
  const m = mnemonic.toLowerCase();
  if (DIALECTS[family].transfer.test(m) || ADDRESSING.test(m)) return [];
  const out: string[] = [];
  const shift = family === 'mips' && m === 'lui' ? 16n : 0n;
  const ops = splitOperands(operands.toLowerCase());
  // Frame set-up (`sub rsp, 0x28`, `add sp, sp, #16`) sizes the stack; its numbers are not values.
  if (ops[0] !== undefined && !/[[(]/.test(ops[0]) && FRAME.test(ops[0])) return [];
  ops.forEach((op, i) => {
    // Displacements off the stack or frame are layout, not the structure offsets rules look for.
    if (FRAME.test(op)) return;
    const memory = [...op.matchAll(MEMORY)].map((x) => x[0]);
    for (const mem of memory) {
      // rip-relative displacements and absolute table addresses locate data: not the structure offsets rules name.
      if (RIP.test(mem)) continue;
      for (const [, sign, digits] of mem.matchAll(NUMBER)) {
        if (!sign && isAddress(Number(digits))) continue;
        for (const v of numberForms(sign === '-', BigInt(digits!)))
          out.push(numberKey('offset', v), numberKey(`operand[${i}].offset`, v));
      }
    }
    for (const [, sign, digits] of op.replace(MEMORY, ' ').matchAll(NUMBER)) {
      const magnitude = BigInt(digits!) << shift;
      if (!sign && isAddress(Number(magnitude))) continue;
      for (const v of numberForms(sign === '-', magnitude))
        out.push(numberKey('number', v), numberKey(`operand[${i}].number`, v));
    }
  });
  return out;
}
