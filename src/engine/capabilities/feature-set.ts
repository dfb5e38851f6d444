// Extracted features, per scope instance, as plain data (frozen to JSON and kept with the analysis, so rules
// re-match without disassembling again), and the set the matcher looks features up in.

/** `[canonical key, address]` pairs; strings are `string:<text>` keys, byte runs `bytes:<hex>`. */
export type FeatureList = [string, number][];

export interface InstructionFeatures {
  address: number;
  features: FeatureList;
}
export interface BlockFeatures {
  address: number;
  features: FeatureList;
  instructions: InstructionFeatures[];
}
export interface FunctionFeaturesDoc {
  address: number;
  features: FeatureList;
  blocks: BlockFeatures[];
}
export interface ExtractedFeatures {
  file: FeatureList;
  functions: FunctionFeaturesDoc[];
}

const STRING = 'string:';
const BYTES = 'bytes:';

/** Features of one scope instance and everything inside it: key → distinct addresses. */
export class FeatureSet {
  readonly keys = new Map<string, Set<number>>();
  /** How many basic blocks the instance holds (functions), for `count(basic blocks)`. */
  blocks = 0;

  add(key: string, address: number): void {
    const at = this.keys.get(key);
    if (at) at.add(address);
    else this.keys.set(key, new Set([address]));
  }

  addList(list: FeatureList): void {
    for (const [key, address] of list) this.add(key, address);
  }

  merge(inner: FeatureSet): void {
    for (const [key, at] of inner.keys) for (const a of at) this.add(key, a);
  }

  has(key: string): boolean {
    return this.keys.has(key);
  }

  count(key: string): number {
    return this.keys.get(key)?.size ?? 0;
  }

  *strings(): Iterable<string> {
    for (const key of this.keys.keys()) if (key.startsWith(STRING)) yield key.slice(STRING.length);
  }

  *byteRuns(): Iterable<string> {
    for (const key of this.keys.keys()) if (key.startsWith(BYTES)) yield key.slice(BYTES.length);
  }
}

export const bytesKey = (bytes: Uint8Array): string => BYTES + Buffer.from(bytes).toString('hex');
