// Hardening features visible in an ELF file (the checksec set). PE-only fields are null.
import type { SecurityFeatures } from '../image.js';
import { ET_DYN, PF_X, PT_GNU_RELRO, PT_GNU_STACK, PT_INTERP } from './constants.js';
import type { ElfContext } from './context.js';
import type { DynamicTable } from './dynamic.js';

const CANARY = new Set(['__stack_chk_fail', '__stack_chk_guard', '__stack_chk_fail_local']);

/**
 * `names` are every import, symbol and undefined dynamic symbol name: a canary shows as a reference to
 * the stack-protector failure handler or guard, FORTIFY_SOURCE as the checked `__*_chk` variants.
 */
export function securityFeatures(ctx: ElfContext, dyn: DynamicTable, names: Iterable<string>): SecurityFeatures {
  const stack = ctx.segments.find((p) => p.type === PT_GNU_STACK);
  const hasInterp = ctx.segments.some((p) => p.type === PT_INTERP);
  const relro = ctx.segments.some((p) => p.type === PT_GNU_RELRO);
  let canary = false;
  let fortify = false;
  for (const name of names) {
    if (!canary && CANARY.has(name)) canary = true;
    if (!fortify && name.startsWith('__') && name.endsWith('_chk') && name !== '__stack_chk') fortify = true;
    if (canary && fortify) break;
  }
  return {
    // Without PT_GNU_STACK the kernel maps an executable stack on the common architectures.
    nx: stack !== undefined && (stack.flags & PF_X) === 0,
    pie: ctx.header.type === ET_DYN && (hasInterp || dyn.pieFlag),
    relro: relro ? (dyn.bindNow ? 'full' : 'partial') : 'none',
    canary,
    fortify,
    aslr: null,
    dep: null,
    cfg: null,
    seh: null,
    highEntropyVa: null,
  };
}
