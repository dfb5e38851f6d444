// Extracted features are kept as the frozen document (contracts/understanding.ts: interned keys, address
// deltas), stored with the analysis so rules re-match without disassembling again. Here: the key interner
// both extraction and matching use, and the set of one scope instance the matcher looks features up in.

const STRING = 'string:';
const BYTES = 'bytes:';
const MATCH = 'match:';

export const bytesKey = (bytes: Uint8Array): string => BYTES + Buffer.from(bytes).toString('hex');

const enum Kind {
  Other,
  String,
  Bytes,
  Match,
}

const kindOf = (key: string): Kind =>
  key.startsWith(STRING)
    ? Kind.String
    : key.startsWith(BYTES)
      ? Kind.Bytes
      : key.startsWith(MATCH)
        ? Kind.Match
        : Kind.Other;

/** Canonical feature keys ↔ small integer ids, with what kind of value each names. */
export class FeatureKeys {
  readonly keys: string[] = [];
  private readonly kinds: Kind[] = [];
  private readonly ids = new Map<string, number>();

  constructor(initial: readonly string[] = []) {
    for (const k of initial) this.id(k);
  }

  id(key: string): number {
    let i = this.ids.get(key);
    if (i === undefined) {
      i = this.keys.push(key) - 1;
      this.kinds.push(kindOf(key));
      this.ids.set(key, i);
    }
    return i;
  }

  /** The id of a key already known, else undefined (a feature nothing has). */
  find(key: string): number | undefined {
    return this.ids.get(key);
  }

  key(id: number): string {
    const k = this.keys[id];
    if (k === undefined) throw new RangeError(`frozen features: key id ${id} out of range`);
    return k;
  }

  /** `id`, refused when the document has no such key. */
  checked(id: number): number {
    this.key(id);
    return id;
  }

  /** The text of a `string:` key, else null. */
  stringOf(id: number): string | null {
    return this.kinds[id] === Kind.String ? this.key(id).slice(STRING.length) : null;
  }

  /** The hex of a `bytes:` key, else null. */
  bytesOf(id: number): string | null {
    return this.kinds[id] === Kind.Bytes ? this.key(id).slice(BYTES.length) : null;
  }

  isMatch(id: number): boolean {
    return this.kinds[id] === Kind.Match;
  }
}

/** Features of one scope instance and everything inside it: key id → the addresses it occurs at. */
export class FeatureSet {
  readonly at = new Map<number, number[]>();
  /** How many basic blocks the instance holds (functions), for `count(basic blocks)`. */
  blocks = 0;

  add(id: number, address: number): void {
    const list = this.at.get(id);
    if (!list) this.at.set(id, [address]);
    else if (list[list.length - 1] !== address) list.push(address);
  }

  has(id: number): boolean {
    return this.at.has(id);
  }

  /** Distinct addresses of the key (repeats are rare: counted only when a rule asks). */
  count(id: number): number {
    const list = this.at.get(id);
    return list ? new Set(list).size : 0;
  }
}
