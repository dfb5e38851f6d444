// AArch64 → IR. Every instruction is one 32-bit word; the engine's decoder (disasm/arm64-decoder.ts) says
// whether it is valid and where its branches go, and the groups below read the word's fields themselves
// (docs/decisions.md, "IR lifters"): data processing, loads and stores, branches and system, scalar
// floating point, Advanced SIMD. What they do not model becomes an `op` over exactly the registers the
// encoding reads, written to the registers it writes.
import { u32le } from '../../disasm/bits.js';
import { decodeArm64 } from '../../disasm/arm64-decoder.js';
import type { Stmt } from '../ir.js';
import type { Lifter } from '../lifter.js';
import { branchOrSystem } from './branches.js';
import { dataImmediate } from './dp-immediate.js';
import { dataRegister } from './dp-register.js';
import { floatingPoint } from './fp.js';
import { Arm64Insn } from './insn.js';
import { loadStore } from './loads-stores.js';
import { ARM64_REGISTERS } from './registers.js';
import { advancedSimd } from './simd.js';

export class Arm64Lifter implements Lifter {
  private readonly x = new Arm64Insn();

  lift(bytes: Uint8Array, offset: number, vaddr: number, out: Stmt[]): number {
    const x = this.x;
    if (!decodeArm64(bytes, offset, vaddr, x.d)) return 0;
    const w = u32le(bytes, offset);
    x.e.begin(vaddr);
    if (!liftWord(x, w)) return 0;
    x.e.commit(out, ARM64_REGISTERS.widths);
    return 4;
  }
}

function liftWord(x: Arm64Insn, w: number): boolean {
  const op0 = (w >>> 25) & 0xf;
  if ((op0 & 0xe) === 0x8) return dataImmediate(x, w);
  if ((op0 & 0xe) === 0xa) return branchOrSystem(x, w);
  if ((op0 & 0x5) === 0x4) return loadStore(x, w);
  if ((op0 & 0x7) === 0x5) return dataRegister(x, w);
  if ((op0 & 0x7) === 0x7) return (w & 0x5e000000) === 0x1e000000 ? floatingPoint(x, w) : advancedSimd(x, w);
  if (op0 === 0) {
    // UDF: the only op0 = 0000 word the decoder accepts.
    x.e.transfer({ k: 'effect', name: 'udf', reads: [], writes: [], vers: [], at: x.e.at });
    return true;
  }
  return false; // SVE and SME: not modelled, counted as undecoded
}
