// capa's rule format (YAML) → Rule. Subscope blocks (`function:`, `basic block:`, `instruction:` inside a
// rule of a wider scope) become rules of their own, matched through a generated `match` feature, so the
// matcher only ever evaluates a tree against one scope instance.
import { parse } from 'yaml';
import { numberKey, stringKey, valueKey, VALUE_FEATURES, type ValueFeature } from './feature-key.js';
import { scopeRank, SCOPES, type Bounds, type Rule, type RuleNode, type Scope } from './rule.js';

export class RuleError extends Error {
  constructor(
    readonly source: string,
    /** What is wrong, without the file name (the message leads with it). */
    readonly reason: string,
  ) {
    super(`${source}: ${reason}`);
  }
}

/** A rule file is a few KiB; these bound what a hostile or broken file can make the parser build. */
const MAX_TEXT = 256 * 1024;
const MAX_DEPTH = 32;
const MAX_NODES = 5000;

/** capa features Binlens does not extract (.NET, dynamic analysis): such a leaf never matches. */
const NEVER_PRESENT = new Set([
  'class',
  'namespace',
  'property/read',
  'property/write',
  'property',
  'com/class',
  'com/interface',
]);

/** Subscopes of dynamic analysis (a rule's `call:` branch beside its `basic block:` one): never match here. */
const DYNAMIC_SUBSCOPES = new Set(['call', 'span of calls', 'thread', 'process']);

/** capa lets a combinator's list hold a `- description: …` item that describes the combinator. */
const isDescriptionItem = (item: unknown): boolean =>
  item !== null && typeof item === 'object' && !Array.isArray(item) && Object.keys(item).join() === 'description';

interface Context {
  source: string;
  name: string;
  nodes: number;
  subrules: Rule[];
  unsupported: Set<string>;
}

const SUBSCOPES: ReadonlySet<string> = new Set<Scope>(['function', 'basic block', 'instruction']);

function fail(ctx: Context, message: string): never {
  throw new RuleError(ctx.source, `rule "${ctx.name}": ${message}`);
}

/** ` = what it means` after a feature's value. */
const DESCRIPTION = /\s+=\s.*$/s;

/** `0x10`, `-1`, `16 = description`, a YAML integer. */
function parseInteger(ctx: Context, raw: unknown, what: string): bigint {
  if (typeof raw === 'bigint') return raw;
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) return BigInt(raw);
  if (typeof raw !== 'string') fail(ctx, `${what}: not an integer`);
  const text = raw.replace(DESCRIPTION, '').trim();
  const m = /^(-)?(0x[0-9a-f]+|[0-9]+)$/i.exec(text);
  if (!m) fail(ctx, `${what}: "${raw}" is not an integer`);
  const v = BigInt(m[2]!);
  return m[1] ? -v : v;
}

/** Lower-case hex, the form extracted `bytes:` features take (feature-set.ts bytesKey). */
function parseBytes(ctx: Context, raw: unknown): string {
  const text = String(raw).replace(DESCRIPTION, '').replace(/\s+/g, '');
  if (!/^([0-9a-f]{2})+$/i.test(text) || text.length > 2 * 256) fail(ctx, `bytes: "${String(raw)}" is not hex`);
  return text.toLowerCase();
}

/** `/pattern/flags` (capa: i and s) → RegExp; anything else is an exact string. */
function parseString(ctx: Context, raw: unknown): RuleNode {
  const text = String(raw);
  const m = /^\/(.*)\/([is]*)$/s.exec(text);
  if (!m) return { kind: 'feature', key: stringKey(text) };
  try {
    return { kind: 'regex', re: new RegExp(m[1]!, m[2]) };
  } catch (err) {
    fail(ctx, `bad regex ${text}: ${(err as Error).message}`);
  }
}

/** `2 or more`, `3 or fewer`, `(2, 10)`, `2`. */
function parseBounds(ctx: Context, raw: unknown): Bounds {
  if (typeof raw === 'number' || typeof raw === 'bigint') return { min: Number(raw), max: Number(raw) };
  const text = String(raw).trim();
  let m = /^(\d+) or more$/.exec(text);
  if (m) return { min: Number(m[1]), max: Infinity };
  m = /^(\d+) or fewer$/.exec(text);
  if (m) return { min: 0, max: Number(m[1]) };
  m = /^\(\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(text);
  if (m && Number(m[1]) <= Number(m[2])) return { min: Number(m[1]), max: Number(m[2]) };
  m = /^(\d+)$/.exec(text);
  if (m) return { min: Number(m[1]), max: Number(m[1]) };
  fail(ctx, `count: "${text}" is not N, "N or more", "N or fewer" or "(N, M)"`);
}

/** A leaf feature `kind: value` → its node (null: a capa feature never present in our extraction). */
function leaf(ctx: Context, kind: string, value: unknown): RuleNode | null {
  if (NEVER_PRESENT.has(kind)) {
    ctx.unsupported.add(kind);
    return null;
  }
  if ((VALUE_FEATURES as readonly string[]).includes(kind)) {
    // capa allows `api: send = description` on every feature but strings.
    const name = typeof value === 'string' ? value.replace(DESCRIPTION, '') : '';
    if (name === '') fail(ctx, `${kind}: expected a name`);
    return { kind: 'feature', key: valueKey(kind as ValueFeature, name) };
  }
  if (kind === 'string') return parseString(ctx, value);
  if (kind === 'substring') return { kind: 'substring', value: String(value) };
  if (kind === 'bytes') return { kind: 'bytes', hex: parseBytes(ctx, value) };
  if (kind === 'number' || kind === 'offset')
    return { kind: 'feature', key: numberKey(kind, parseInteger(ctx, value, kind)) };
  const operand = /^operand\[(\d)\]\.(number|offset)$/.exec(kind);
  if (operand) return { kind: 'feature', key: numberKey(kind, parseInteger(ctx, value, kind)) };
  fail(ctx, `unknown feature "${kind}"`);
}

/** `count(mnemonic(xor))`, `count(characteristic(nzxor))`, `count(basic blocks)`, `count(string(x))`. */
function parseCount(ctx: Context, inner: string, value: unknown): RuleNode | null {
  const bounds = parseBounds(ctx, value);
  if (inner === 'basic blocks') return { kind: 'count-blocks', bounds };
  const m = /^([a-z/\-[\]0-9.]+)\((.*)\)$/s.exec(inner);
  if (!m) fail(ctx, `count(${inner}): expected count(feature(value))`);
  const node = leaf(ctx, m[1]!, m[2]!);
  if (node === null) return null;
  if (node.kind !== 'feature') fail(ctx, `count(${inner}): only exact features can be counted`);
  return { kind: 'count', key: node.key, bounds };
}

function asList(ctx: Context, value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) fail(ctx, `${what}: expected a list`);
  return value;
}

/** The one feature or combinator in a list item, ignoring its `description`. */
function parseItem(ctx: Context, item: unknown, scope: Scope, depth: number): RuleNode | null {
  if (depth > MAX_DEPTH) fail(ctx, `nested deeper than ${MAX_DEPTH}`);
  if (++ctx.nodes > MAX_NODES) fail(ctx, `more than ${MAX_NODES} features`);
  if (item === null || typeof item !== 'object' || Array.isArray(item)) fail(ctx, 'expected `feature: value`');
  const entries = Object.entries(item).filter(([k]) => k !== 'description');
  if (entries.length !== 1) fail(ctx, `expected one feature per item, got ${entries.map(([k]) => k).join(', ')}`);
  const [key, value] = entries[0]!;
  const list = (): unknown[] => asList(ctx, value, key).filter((c) => !isDescriptionItem(c));
  const children = (): RuleNode[] => list().map((c) => parseItem(ctx, c, scope, depth + 1) ?? NEVER);
  if (key === 'and' || key === 'or') return { kind: key, children: children() };
  if (key === 'not') {
    const items = list();
    const inner =
      items.length === 1 ? parseItem(ctx, items[0], scope, depth + 1) : { kind: 'and' as const, children: children() };
    return { kind: 'not', child: inner ?? NEVER };
  }
  if (key === 'optional') return { kind: 'some', bounds: { min: 0, max: Infinity }, children: children() };
  const some = /^(\d+) or more$/.exec(key);
  if (some) return { kind: 'some', bounds: { min: Number(some[1]), max: Infinity }, children: children() };
  const count = /^count\((.*)\)$/s.exec(key);
  if (count) return parseCount(ctx, count[1]!, value);
  if (SUBSCOPES.has(key)) return subscope(ctx, key as Scope, scope, children());
  if (DYNAMIC_SUBSCOPES.has(key)) {
    ctx.unsupported.add(key);
    return null;
  }
  return leaf(ctx, key, value);
}

/** A leaf that is never present: `or` ignores it, `and` fails on it. */
const NEVER: RuleNode = { kind: 'or', children: [] };

function subscope(ctx: Context, inner: Scope, outer: Scope, children: RuleNode[]): RuleNode {
  // capa accepts a block of the rule's own scope (the static twin of a dynamic branch): it is a plain `and`.
  if (inner === outer) return { kind: 'and', children };
  if (scopeRank(inner) > scopeRank(outer)) fail(ctx, `a ${inner} block inside a ${outer} rule`);
  const name = `${ctx.name}/${inner} ${ctx.subrules.length}`;
  ctx.subrules.push({
    name,
    namespace: null,
    scope: inner,
    lib: true,
    attack: [],
    mbc: [],
    description: '',
    examples: [],
    source: ctx.source,
    root: { kind: 'and', children },
  });
  return { kind: 'feature', key: valueKey('match', name) };
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.map(String) : [];
}

/** The static scope: `scopes: {static: …}` (capa 7+) or `scope: …` (older rules); null when static-less. */
function staticScope(ctx: Context, meta: Record<string, unknown>): Scope | null {
  const scopes = meta.scopes as Record<string, unknown> | undefined;
  const raw = scopes && typeof scopes === 'object' ? scopes.static : (meta.scope ?? 'function');
  if (raw === 'unsupported') return null;
  if (!(SCOPES as readonly unknown[]).includes(raw)) fail(ctx, `unknown scope "${String(raw)}"`);
  return raw as Scope;
}

export interface ParsedRule {
  /** The rule and the subscope rules generated from it; empty when it has no static scope. */
  rules: Rule[];
  /** capa features the rule uses that Binlens never extracts (they never match). */
  unsupported: string[];
}

export function parseRule(text: string, source: string): ParsedRule {
  if (text.length > MAX_TEXT) throw new RuleError(source, `larger than ${MAX_TEXT} bytes`);
  let doc: unknown;
  try {
    doc = parse(text, { intAsBigInt: true, maxAliasCount: 100 });
  } catch (err) {
    throw new RuleError(source, `not YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const rule = (doc as { rule?: unknown } | null)?.rule as Record<string, unknown> | undefined;
  if (!rule || typeof rule !== 'object') throw new RuleError(source, 'no top-level `rule`');
  const meta = rule.meta as Record<string, unknown> | undefined;
  if (!meta || typeof meta.name !== 'string' || meta.name === '') throw new RuleError(source, 'no meta.name');
  const ctx: Context = { source, name: meta.name, nodes: 0, subrules: [], unsupported: new Set() };
  const scope = staticScope(ctx, meta);
  if (scope === null) return { rules: [], unsupported: [] };
  const features = asList(ctx, rule.features, 'features');
  if (features.length !== 1) fail(ctx, 'features: expected exactly one root item');
  const root = parseItem(ctx, features[0], scope, 0) ?? NEVER;
  const main: Rule = {
    name: meta.name,
    namespace: typeof meta.namespace === 'string' ? meta.namespace : null,
    scope,
    lib: meta.lib === true,
    attack: stringList(meta['att&ck']),
    mbc: stringList(meta.mbc),
    description: typeof meta.description === 'string' ? meta.description : '',
    examples: stringList(meta.examples),
    source,
    root,
  };
  return { rules: [...ctx.subrules, main], unsupported: [...ctx.unsupported] };
}
