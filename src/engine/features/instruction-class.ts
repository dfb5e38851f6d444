// One instruction's text → its classes, the alphabet of the instruction n-grams (isa/classes.ts), through
// its ISA's dialect (isa/<cpu>.ts: the mnemonic table, frame and return idioms).
import { DIALECTS, type InstructionClass, type IsaFamily } from '../isa/index.js';

/** Alignment padding and ARM IT prefixes: present or not by compiler whim, not by what the code does. */
const PADDING = /^(nop|endbr|ssnop|ehb|it[te]{0,3}$)/;

/**
 * Register saves and restores; `leave` tears the frame down. Dropped with frame accesses: at -O0 every
 * local lives in the frame and each statement loads and stores it; at -O2 the same values stay in
 * registers, so without them an -O0 body reads like its -O2 counterpart.
 */
const isSaveRestore = (m: string, ops: string) =>
  /^(push|pop|leave)/.test(m) || (/^(stp|ldp|stm|ldm)/.test(m) && /\bsp\b/.test(ops));

/**
 * The classes one instruction contributes, in order; empty for padding (nops, ARM `it`) and for stack
 * frame traffic (the dialect's frameAccess). Most give one class; an x86 instruction with a memory operand gives
 * `load` before (and `store` after, when the memory is the destination) its operation, as a load/store
 * architecture would spell it.
 */
export function classifyInstruction(family: IsaFamily, mnemonic: string, operands: string): InstructionClass[] {
  const dialect = DIALECTS[family];
  const m = mnemonic.toLowerCase().replace(/\.[nw]$/, '');
  const ops = operands.toLowerCase();
  const transfer = dialect.transferClass(m, ops);
  if (transfer) return transfer;
  if (PADDING.test(m)) return [];
  const cls = dialect.classes.find(([re]) => re.test(m))?.[1] ?? 'other';
  if (isSaveRestore(m, ops)) return [];
  const frame = dialect.frameAccess.test(ops);
  if (frame && (cls === 'load' || cls === 'store' || cls === 'move' || cls === 'extend')) return [];
  if (frame) return cls === 'call' || cls === 'jump' ? ['load', cls] : [cls];
  if (!dialect.memoryOperands || !ops.includes('[')) return [cls];
  const memFirst = ops.split(',')[0]!.includes('[');
  if (cls === 'move' || cls === 'extend') return [memFirst ? 'store' : 'load'];
  if (cls === 'address' || cls === 'store' || cls === 'load' || cls === 'atomic') return [cls];
  if (cls === 'call' || cls === 'jump') return ['load', cls];
  return memFirst && cls !== 'compare' && cls !== 'test' ? ['load', cls, 'store'] : ['load', cls];
}
