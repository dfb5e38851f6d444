// Addresses built by two or more instructions, which a per-instruction decoder cannot see whole:
// AArch64 `adrp x0, page; add x0, x0, #off` / `ldr x1, [x0, #off]`, MIPS `lui a0, hi; addiu a0, a0, lo` /
// `lw t9, off(gp)`, ARM/Thumb PIC `ldr r3, [pc, #n]; add r3, pc`. Decoders describe their half in the
// hi/lo fields of Decoded; the CFG feeds each instruction of a block, in order, to `pairRef`, which keeps
// what is known of each register and returns the address the instruction completes.
// Allocation-free: one state (32 float64 = 256 bytes) per walk, reset at block starts.
import { Flow, type Decoded } from './instruction.js';

export interface PairState {
  /** Known value per register (architecture numbering), NaN when unknown. */
  readonly values: Float64Array;
  /** Registers whose value the ABI fixes for the whole function (MIPS $gp in PIC code): never invalidated. */
  pinned: number;
  /** 32-bit architectures wrap sums modulo 2^32. */
  readonly wrap32: boolean;
  /** Registers a call leaves undefined (the ABI's caller-saved set), as a bit mask; 0 keeps them all. */
  readonly callClobbers: number;
  /** A call's delay slot is still to come: clobber after it (it runs before the call). */
  clobberAfterNext: boolean;
}

export const newPairState = (bits: 32 | 64, callClobbers = 0): PairState => ({
  values: new Float64Array(32).fill(NaN),
  pinned: 0,
  wrap32: bits === 32,
  callClobbers,
  clobberAfterNext: false,
});

/** Forgets every register but the pinned ones (call at block starts: other paths may reach the block). */
export function resetPairState(state: PairState): void {
  for (let r = 0; r < 32; r++) if (!(state.pinned & (1 << r))) state.values[r] = NaN;
  state.clobberAfterNext = false;
}

function clobber(state: PairState): void {
  for (let r = 0; r < 32; r++) if (state.callClobbers & (1 << r) && !(state.pinned & (1 << r))) state.values[r] = NaN;
}

/** Fixes a register's value for the walk, e.g. MIPS $gp (28) = `_gp` so `lw t9, off(gp)` resolves GOT slots. */
export function pinRegister(state: PairState, reg: number, value: number): void {
  state.values[reg] = value;
  state.pinned |= 1 << reg;
}

/**
 * Feeds one instruction; returns the absolute address it forms with earlier instructions (the ADD/LDR
 * after an ADRP, the ADDIU/LW after a LUI, a $gp-relative GOT slot), or -1. `loadWord`, when given, reads
 * a pointer-sized word of the image (or returns -1): PC-relative literal loads and loads through pinned
 * registers then set their destination to the loaded value (ARM `ldr r3, =off` before `add r3, pc`; the
 * MIPS GOT entry loaded into $t9 before `jalr t9`).
 */
export function pairRef(state: PairState, d: Decoded, loadWord?: (address: number) => number): number {
  const v = state.values;
  let result = -1;
  const lo = d.loReg;
  if (lo >= 0 && lo < 32) {
    const base = v[lo]!;
    if (!Number.isNaN(base)) result = state.wrap32 ? (base + d.loImm) >>> 0 : base + d.loImm;
  }
  const w = d.writeReg;
  if (w >= 0 && w < 32 && !(state.pinned & (1 << w))) {
    v[w] = NaN;
    if (result >= 0 && !d.loMemory)
      v[w] = result; // the register now holds the whole address
    else if (loadWord && d.flow === Flow.Sequential) {
      const viaPinned = result >= 0 && d.loMemory && (state.pinned & (1 << lo)) !== 0;
      const literal = lo < 0 && d.refIsMemory && d.ref >= 0;
      if (viaPinned || literal) {
        const word = loadWord(viaPinned ? result : d.ref);
        if (word >= 0) v[w] = word;
      }
    }
  }
  const hi = d.hiReg;
  if (hi >= 0 && hi < 32 && !(state.pinned & (1 << hi))) v[hi] = d.hiValue;
  if (state.clobberAfterNext) {
    state.clobberAfterNext = false;
    clobber(state);
  }
  if (state.callClobbers !== 0 && (d.flow === Flow.Call || d.flow === Flow.IndirectCall)) {
    if (d.delaySlot) state.clobberAfterNext = true;
    else clobber(state);
  }
  return result;
}
