// Where a call came from: the call instruction just before a return address, found by its length.
import type { Cpu } from './unicorn.js';

/** The length of the call instruction that ends the bytes before a return address (0: none). */
export type CallLength = (before: Uint8Array) => number;

/** The address of the call instruction that returns to `ret`, or null when the bytes before it are none. */
export function callBefore(cpu: Cpu, callLength: CallLength, ret: bigint): number | null {
  const before = cpu.read(ret - 6n, 6);
  const length = before ? callLength(before) : 0;
  return length ? Number(ret) - length : null;
}
