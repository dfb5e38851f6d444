// Capability features written by hand for tests and rule examples (test/fixtures/capabilities/*.json):
// `[key, address]` lists per scope instance, turned into the frozen document the engine extracts and
// the matcher reads.
import type { FrozenFeatures } from '../../src/contracts/understanding.js';
import { FeatureKeys, FROZEN_VERSION } from '../../src/engine/capabilities/index.js';

export type FeatureList = [string, number][];

export interface ReadableFeatures {
  file: FeatureList;
  functions: {
    address: number;
    features: FeatureList;
    blocks: { address: number; features: FeatureList; instructions: { address: number; features: FeatureList }[] }[];
  }[];
}

export function freezeReadable(x: ReadableFeatures): FrozenFeatures {
  const keys = new FeatureKeys();
  const pairs = (list: FeatureList): number[] => list.flatMap(([k, a]) => [keys.id(k), a]);
  const functions = x.functions.map((fn) => ({
    a: fn.address,
    f: pairs(fn.features),
    b: fn.blocks.map((bb) => {
      const i: number[] = [];
      let prev = bb.address;
      for (const insn of bb.instructions) {
        i.push(insn.address - prev, insn.features.length, ...insn.features.map(([k]) => keys.id(k)));
        prev = insn.address;
      }
      return { a: bb.address, f: pairs(bb.features), i };
    }),
  }));
  return { version: FROZEN_VERSION, keys: keys.keys, file: pairs(x.file), functions };
}
