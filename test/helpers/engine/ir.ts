// Test support for src/engine/ir and src/engine/types: a fixture image recovered, then its functions lifted,
// in SSA form with data flow, or with their recovered signatures.
import { functionBlocks } from '../../../src/engine/cfg/index.js';
import { createDecoder } from '../../../src/engine/disasm/index.js';
import { dataFlow, type DataFlow } from '../../../src/engine/ir/dataflow.js';
import { FunctionLifter } from '../../../src/engine/ir/lift-function.js';
import { toSsa } from '../../../src/engine/ir/ssa.js';
import { isaProfile } from '../../../src/engine/isa/index.js';
import { recoverFunctionSignatures, type RecoveredSignature } from '../../../src/engine/types/index.js';
import { fixtureImage, recoverFixture, type FixtureSpec } from './cfg.js';

/** Each recovered function of the fixture lifted, in SSA form, with its data flow. */
export async function liftFixture(spec: FixtureSpec): Promise<Map<number, DataFlow>> {
  const image = fixtureImage(spec);
  const graph = await recoverFixture(spec);
  const decoder = await createDecoder(isaProfile(spec.arch)!.modeFor('little'));
  const lifter = new FunctionLifter(image, graph, { decoder }, image.identity.platform);
  const layouts = functionBlocks(graph);
  const out = new Map<number, DataFlow>();
  graph.functions.forEach((f, fi) => {
    const fn = lifter.lift(fi, layouts[fi]!);
    if (fn) out.set(f.start, dataFlow(toSsa(fn)));
  });
  return out;
}

/** The fixture's functions' recovered signatures by start address. */
export async function signaturesOf(spec: FixtureSpec): Promise<Map<number, RecoveredSignature | null>> {
  const image = fixtureImage(spec);
  const graph = await recoverFixture(spec);
  const decoder = await createDecoder(isaProfile(spec.arch)!.modeFor('little'));
  const sigs = recoverFunctionSignatures(image, graph, { decoder });
  return new Map(graph.functions.map((f, i) => [f.start, sigs[i]!]));
}
