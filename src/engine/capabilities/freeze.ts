// Extracted features ↔ a compact JSON document kept with the analysis. Keys are interned once (sqlite's
// 290 000 feature occurrences use ~6 000 distinct keys) and instruction addresses are stored as deltas,
// which takes sqlite x86-64 from 16 MB of plain JSON to ~2 MB.
import type { FrozenFeatures } from '../../contracts/understanding.js';
import type { ExtractedFeatures, FeatureList, FunctionFeaturesDoc } from './feature-set.js';

export const FROZEN_VERSION = 1;
export type { FrozenFeatures } from '../../contracts/understanding.js';

export function freezeFeatures(x: ExtractedFeatures): FrozenFeatures {
  const ids = new Map<string, number>();
  const keys: string[] = [];
  const id = (k: string): number => {
    let i = ids.get(k);
    if (i === undefined) {
      i = keys.push(k) - 1;
      ids.set(k, i);
    }
    return i;
  };
  const pairs = (list: FeatureList): number[] => list.flatMap(([k, a]) => [id(k), a]);
  const functions = x.functions.map((fn) => ({
    a: fn.address,
    f: pairs(fn.features),
    b: fn.blocks.map((bb) => {
      const i: number[] = [];
      let prev = bb.address;
      for (const insn of bb.instructions) {
        i.push(insn.address - prev, insn.features.length);
        for (const [k] of insn.features) i.push(id(k));
        prev = insn.address;
      }
      return { a: bb.address, f: pairs(bb.features), i };
    }),
  }));
  return { version: FROZEN_VERSION, keys, file: pairs(x.file), functions };
}

export function thawFeatures(z: FrozenFeatures): ExtractedFeatures {
  const key = (i: number): string => {
    const k = z.keys[i];
    if (k === undefined) throw new RangeError(`frozen features: key id ${i} out of range`);
    return k;
  };
  const pairs = (flat: number[]): FeatureList => {
    const out: FeatureList = [];
    for (let j = 0; j + 1 < flat.length; j += 2) out.push([key(flat[j]!), flat[j + 1]!]);
    return out;
  };
  const functions: FunctionFeaturesDoc[] = z.functions.map((fn) => ({
    address: fn.a,
    features: pairs(fn.f),
    blocks: fn.b.map((bb) => {
      const instructions = [];
      let address = bb.a;
      for (let j = 0; j < bb.i.length;) {
        address += bb.i[j]!;
        const n = bb.i[j + 1]!;
        const features: FeatureList = bb.i.slice(j + 2, j + 2 + n).map((k) => [key(k), address]);
        instructions.push({ address, features });
        j += 2 + n;
      }
      return { address: bb.a, features: pairs(bb.f), instructions };
    }),
  }));
  return { file: pairs(z.file), functions };
}
