// Where a recovered parameter lives, both ways: a signature's parameter → the entry value the function's
// facts traced for it, and a value a caller passes (register position or stack slot) → the callee's
// parameter it becomes.
import type { CallingConvention } from '../ir/lifter.js';
import type { ArgUse, FunctionFacts } from './function-facts.js';
import type { ParamLocation, RecoveredSignature } from './recovered-signature.js';
import type { Passed } from './value-trace.js';

/** The traced entry value of a parameter at `loc` (none for vector registers, traced apart). */
export function argUseAt(facts: FunctionFacts, conv: CallingConvention, loc: ParamLocation): ArgUse | undefined {
  if (loc.kind === 'int') return facts.intArgs[loc.index];
  if (loc.kind === 'stack')
    return facts.stackArgs.find((s) => conv.stackArgsAt + s.pos * conv.stackSlot === loc.offset);
  return undefined;
}

/** The index in the callee's signature of the parameter a passed value becomes, or -1. */
export function paramIndexOf(sig: RecoveredSignature, conv: CallingConvention, p: Passed): number {
  return sig.params.findIndex((q) =>
    p.stack
      ? q.location.kind === 'stack' && q.location.offset === conv.stackArgsAt + p.pos * conv.stackSlot
      : q.location.kind === 'int' && q.location.index === p.pos,
  );
}
