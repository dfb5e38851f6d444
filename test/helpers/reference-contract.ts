// The reference API description (../shared/api/reference-v3.67.0.openapi.json) and the tools the contract
// test uses on it: $ref resolution, a canonical form of a JSON schema, and a readable diff of two schemas.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** A JSON schema or any other OpenAPI object, kept loose: both documents are plain parsed JSON. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** The contract test's request: the response is validated against the schema of `template`'s `status`. */
export type ContractCall = (
  key: string | null,
  method: string,
  template: string,
  status: number,
  opts?: { params?: Record<string, string | number>; query?: string; body?: unknown },
) => Promise<{ data: Record<string, unknown> | null }>;

export interface OpenApiDoc extends JsonObject {
  paths: { [path: string]: { [method: string]: JsonObject } };
}

export const REFERENCE_FILE = path.resolve(process.cwd(), '..', 'shared', 'api', 'reference-v3.67.0.openapi.json');

/** Why the contract test cannot run here, or null when the reference is available. */
export const referenceSkip: string | null = existsSync(REFERENCE_FILE)
  ? null
  : `reference OpenAPI description not found at ${REFERENCE_FILE}; contract test skipped`;

export const reference: OpenApiDoc | null =
  referenceSkip === null ? (JSON.parse(readFileSync(REFERENCE_FILE, 'utf8')) as OpenApiDoc) : null;

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Follows a local JSON pointer (`#/components/schemas/X`) inside `doc`. */
export function pointer(doc: Json, ref: string): Json | undefined {
  if (!ref.startsWith('#')) throw new Error(`only local $refs are supported, got ${ref}`);
  let cur: Json | undefined = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur)) cur = cur[Number(key)];
    else if (isObject(cur)) cur = cur[key];
    else return undefined;
  }
  return cur;
}

/**
 * Replaces every `$ref` in `node` by the (recursively resolved) object it points to, giving a plain schema.
 * Siblings of a `$ref` (OpenAPI 3.1 allows them) are kept and win over the target's keys. A `$ref` met again
 * while it is still being expanded (a cycle) becomes `{ "x-cycle": "<ref>" }`, which Ajv ignores and the
 * normalizer reports as its own kind.
 */
export function resolveRefs(node: Json, doc: Json, expanding: readonly string[] = []): Json {
  if (Array.isArray(node)) return node.map((x) => resolveRefs(x, doc, expanding));
  if (!isObject(node)) return node;
  const ref = node.$ref;
  if (typeof ref === 'string') {
    if (expanding.includes(ref)) return { 'x-cycle': ref };
    const target = pointer(doc, ref);
    if (target === undefined) throw new Error(`unresolvable $ref ${ref}`);
    const resolved = resolveRefs(target, doc, [...expanding, ref]);
    const siblings = Object.fromEntries(Object.entries(node).filter(([k]) => k !== '$ref'));
    if (Object.keys(siblings).length === 0) return resolved;
    return { ...(isObject(resolved) ? resolved : {}), ...(resolveRefs(siblings, doc, expanding) as JsonObject) };
  }
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node)) out[k] = resolveRefs(v, doc, expanding);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Canonical form

/**
 * A schema reduced to what matters on the wire. `type` lists the non-null JSON types allowed, sorted
 * (empty = anything); `nullable` says whether `null` is allowed as well, however the schema spelled it
 * (`{anyOf:[X,{type:'null'}]}`, `{type:[T,'null']}`, an enum containing null, OpenAPI 3.0 `nullable`).
 * Annotations (title, description, default, format, examples, $id, …) are dropped; so are
 * `additionalProperties: true`/`{}` and empty `properties`/`required`, which say nothing.
 */
export interface Canon {
  type: string[];
  nullable: boolean;
  enum?: Json[];
  properties?: Record<string, Canon>;
  required?: string[];
  /** Only when it restricts: `false`, or a schema other than "anything". */
  additionalProperties?: false | Canon;
  items?: Canon;
  /** Alternatives left after nulls were lifted into `nullable` and subsumed branches dropped; sorted. */
  anyOf?: Canon[];
  /** Validation bounds: minimum, maximum, minLength, pattern, … */
  constraints?: Record<string, Json>;
  /** Set where a `$ref` cycle was cut. */
  cycle?: string;
}

const CONSTRAINTS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
] as const;

/** Keywords that describe a schema without constraining values; never compared. */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'format',
  'examples',
  'example',
  '$id',
  '$schema',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
  'xml',
  'externalDocs',
  'discriminator',
  'contentMediaType',
  'contentEncoding',
]);

const ANY: Canon = { type: [], nullable: false };
const stable = (v: unknown): string => JSON.stringify(v);
const sortValues = (vs: Json[]) => [...vs].sort((a, b) => (stable(a) < stable(b) ? -1 : stable(a) > stable(b) ? 1 : 0));
const isAny = (c: Canon) =>
  c.type.length === 0 &&
  !c.anyOf &&
  !c.enum &&
  !c.properties &&
  !c.required &&
  c.additionalProperties === undefined &&
  !c.items &&
  !c.constraints &&
  !c.cycle;
const isNullOnly = (c: Canon) => c.type.length === 1 && c.type[0] === 'null';
/** An object schema that accepts every object (no properties, requirements or bounds). */
const isOpenObject = (c: Canon) =>
  c.type.length === 1 &&
  c.type[0] === 'object' &&
  !c.anyOf &&
  !c.enum &&
  !c.properties &&
  !c.required &&
  c.additionalProperties === undefined &&
  !c.constraints;

function jsonType(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Turns a (resolved) schema into its canonical form. Unresolved `$ref`s are an error: resolve first. */
export function normalize(schema: Json | undefined): Canon {
  if (schema === undefined || schema === true) return { ...ANY };
  if (schema === false) return { type: ['never'], nullable: false };
  if (!isObject(schema)) throw new Error(`not a schema: ${stable(schema)}`);
  if (typeof schema.$ref === 'string') throw new Error(`unresolved $ref ${schema.$ref}; call resolveRefs first`);
  if (typeof schema['x-cycle'] === 'string') return { ...ANY, cycle: schema['x-cycle'] };

  const s: JsonObject = {};
  for (const [k, v] of Object.entries(schema)) if (!ANNOTATIONS.has(k) && !k.startsWith('x-')) s[k] = v;

  // allOf: a conjunction; merge its members into the schema (enough for `allOf: [X]` wrappers).
  if (Array.isArray(s.allOf)) {
    const members = s.allOf;
    delete s.allOf;
    let merged: JsonObject = s;
    for (const m of members) if (isObject(m)) merged = mergeSchemas(merged, m);
    return normalize(merged);
  }

  // anyOf/oneOf: distribute sibling keywords into each branch, lift nulls, drop duplicates and branches
  // that an "any object" branch subsumes. (oneOf is treated as anyOf; the wire shapes are what we compare.)
  const alternatives = (Array.isArray(s.anyOf) ? s.anyOf : []).concat(Array.isArray(s.oneOf) ? s.oneOf : []);
  if (Array.isArray(s.anyOf) || Array.isArray(s.oneOf)) {
    const siblings = Object.fromEntries(Object.entries(s).filter(([k]) => k !== 'anyOf' && k !== 'oneOf'));
    const branches = alternatives.map((b) =>
      normalize(Object.keys(siblings).length && isObject(b) ? mergeSchemas(siblings, b) : b),
    );
    return union(branches);
  }

  const out: Canon = { type: [], nullable: false };
  let types: string[] = [];
  if (typeof s.type === 'string') types = [s.type];
  else if (Array.isArray(s.type)) types = s.type.filter((t): t is string => typeof t === 'string');

  let enumValues: Json[] | undefined;
  if (Array.isArray(s.enum)) enumValues = s.enum;
  else if (s.const !== undefined) enumValues = [s.const];
  if (enumValues) {
    if (enumValues.includes(null)) out.nullable = true;
    const values = enumValues.filter((v) => v !== null);
    if (values.length) out.enum = sortValues(values);
    if (!types.length) {
      types = [...new Set(values.map(jsonType))];
      if (types.includes('integer') && types.includes('number')) types = types.filter((t) => t !== 'integer');
    }
  }
  if (s.nullable === true) out.nullable = true;

  if (!types.length) {
    if (isObject(s.properties) || Array.isArray(s.required) || s.additionalProperties !== undefined) types = ['object'];
    else if (s.items !== undefined) types = ['array'];
  }
  if (types.includes('null')) {
    out.nullable = true;
    types = types.filter((t) => t !== 'null');
    // `{type: 'null'}` alone: only null.
    if (!types.length && !enumValues) return { type: ['null'], nullable: false };
  }
  out.type = [...new Set(types)].sort();

  if (out.type.includes('object') || (!out.type.length && isObject(s.properties))) {
    if (isObject(s.properties) && Object.keys(s.properties).length) {
      out.properties = {};
      for (const k of Object.keys(s.properties).sort()) out.properties[k] = normalize(s.properties[k]);
    }
    if (Array.isArray(s.required) && s.required.length)
      out.required = [...new Set(s.required.filter((r): r is string => typeof r === 'string'))].sort();
    if (s.additionalProperties === false) out.additionalProperties = false;
    else if (isObject(s.additionalProperties)) {
      const ap = normalize(s.additionalProperties);
      if (!isAny(ap)) out.additionalProperties = ap;
    }
  }
  if (out.type.includes('array') || (!out.type.length && s.items !== undefined)) {
    out.items = normalize(s.items as Json | undefined);
  }
  for (const k of CONSTRAINTS) {
    if (s[k] !== undefined) (out.constraints ??= {})[k] = s[k];
  }
  return out;
}

function mergeSchemas(a: JsonObject, b: JsonObject): JsonObject {
  const out: JsonObject = { ...a, ...b };
  if (isObject(a.properties) && isObject(b.properties)) out.properties = { ...a.properties, ...b.properties };
  if (Array.isArray(a.required) && Array.isArray(b.required)) out.required = [...a.required, ...b.required];
  return out;
}

function union(branches: Canon[]): Canon {
  let nullable = false;
  let rest: Canon[] = [];
  for (const b of branches) {
    if (b.anyOf && b.type.length === 0) {
      // A nested union: flatten it.
      nullable ||= b.nullable;
      rest.push(...b.anyOf);
      continue;
    }
    if (isNullOnly(b)) {
      nullable = true;
      continue;
    }
    nullable ||= b.nullable;
    rest.push({ ...b, nullable: false });
  }
  if (rest.some(isAny)) return { ...ANY, nullable };
  // {anyOf: [SomeObject, {type: 'object'}]} accepts exactly what {type: 'object'} accepts.
  if (rest.some(isOpenObject))
    rest = rest.filter((b) => isOpenObject(b) || !(b.type.length === 1 && b.type[0] === 'object'));
  const seen = new Map<string, Canon>();
  for (const b of rest) seen.set(stable(b), b);
  rest = [...seen.values()].sort((x, y) => (stable(x) < stable(y) ? -1 : 1));
  if (rest.length === 0) return { type: ['null'], nullable: false };
  if (rest.length === 1) return { ...rest[0]!, nullable: nullable || rest[0]!.nullable };
  return { type: [], nullable, anyOf: rest };
}

// ---------------------------------------------------------------------------------------------------------
// Differences

/** One-line rendering of a canonical schema, for messages. */
export function describe(c: Canon): string {
  if (c.cycle) return `<cycle ${c.cycle}>`;
  let base: string;
  if (c.anyOf) base = c.anyOf.map(describe).join(' | ');
  else if (c.enum) base = `${c.type.join('|') || 'any'} enum ${stable(c.enum)}`;
  else if (isNullOnly(c)) base = 'null';
  else if (c.type.length === 0) base = 'any';
  else if (c.type.length === 1 && c.type[0] === 'array') base = `array of ${describe(c.items ?? ANY)}`;
  else if (c.type.length === 1 && c.type[0] === 'object' && c.properties)
    base = `object {${Object.keys(c.properties).join(', ')}}`;
  else base = c.type.join('|');
  return c.nullable ? `nullable ${base}` : base;
}

/**
 * The one enum Binlens extends on purpose (docs/decisions.md, "Model names"): the reference's ModelName values
 * stay, in order, and names for the architectures and platforms the reference has no model for follow.
 */
function extendsModelNames(server: Json[] | undefined, ref: Json[] | undefined): boolean {
  const modelNames = (reference?.components as JsonObject | undefined)?.schemas as JsonObject | undefined;
  const refModels = ((modelNames?.ModelName as JsonObject | undefined)?.enum ?? []) as Json[];
  return (
    ref !== undefined &&
    server !== undefined &&
    stable(sortValues([...ref])) === stable(sortValues([...refModels])) &&
    ref.every((v) => server.includes(v))
  );
}

/**
 * Differences between the server's canonical schema and the reference's, as readable lines prefixed by
 * `where` (e.g. `POST /v2/analyses body`). Empty when they are equivalent.
 */
export function diffCanon(server: Canon, ref: Canon, where: string): string[] {
  const out: string[] = [];
  const at = (suffix: string) => `${where}${suffix}`;
  if (isAny(ref) && isAny(server)) {
    if (server.nullable !== ref.nullable) out.push(`${where}: nullable differs`);
    return out;
  }
  if (stable(server.type) !== stable(ref.type)) {
    out.push(`${where}: type differs (server: ${describe(server)}; reference: ${describe(ref)})`);
    return out;
  }
  if (server.nullable !== ref.nullable)
    out.push(
      `${where}: nullability differs (server: ${server.nullable ? 'nullable' : 'not nullable'}; reference: ${ref.nullable ? 'nullable' : 'not nullable'})`,
    );
  if (stable(server.enum) !== stable(ref.enum) && !extendsModelNames(server.enum, ref.enum))
    out.push(
      `${where}: enum differs (server: ${server.enum ? stable(server.enum) : 'none'}; reference: ${ref.enum ? stable(ref.enum) : 'none'})`,
    );
  if (server.cycle !== ref.cycle) out.push(`${where}: $ref cycle differs (${server.cycle} vs ${ref.cycle})`);
  if (stable(server.constraints) !== stable(ref.constraints))
    out.push(
      `${where}: bounds differ (server: ${stable(server.constraints ?? {})}; reference: ${stable(ref.constraints ?? {})})`,
    );

  // Union alternatives: pairwise when the counts match (both are sorted), otherwise as a whole.
  if (server.anyOf || ref.anyOf) {
    const a = server.anyOf ?? [];
    const b = ref.anyOf ?? [];
    if (a.length !== b.length)
      out.push(`${where}: alternatives differ (server: ${describe(server)}; reference: ${describe(ref)})`);
    else a.forEach((x, i) => out.push(...diffCanon(x, b[i]!, at(`<anyOf ${i}>`))));
  }

  const sp = server.properties ?? {};
  const rp = ref.properties ?? {};
  for (const k of Object.keys(rp)) {
    if (!(k in sp)) out.push(`${at(`.${k}`)}: missing from the server (reference: ${describe(rp[k]!)})`);
    else out.push(...diffCanon(sp[k]!, rp[k]!, at(`.${k}`)));
  }
  for (const k of Object.keys(sp))
    if (!(k in rp)) out.push(`${at(`.${k}`)}: not in the reference (server: ${describe(sp[k]!)})`);

  const sr = new Set(server.required ?? []);
  const rr = new Set(ref.required ?? []);
  const onlyServer = [...sr].filter((k) => !rr.has(k));
  const onlyRef = [...rr].filter((k) => !sr.has(k));
  if (onlyServer.length || onlyRef.length)
    out.push(
      `${where}: required differs (required only by the server: [${onlyServer.join(', ')}]; only by the reference: [${onlyRef.join(', ')}])`,
    );

  const sa = server.additionalProperties;
  const ra = ref.additionalProperties;
  if (sa === false || ra === false) {
    if (sa !== ra)
      out.push(`${where}: additionalProperties differs (server: ${sa === false}; reference: ${ra === false})`);
  } else if (sa || ra) out.push(...diffCanon(sa ?? ANY, ra ?? ANY, at('{additionalProperties}')));

  if (server.items || ref.items) out.push(...diffCanon(server.items ?? ANY, ref.items ?? ANY, at('[]')));
  return out;
}

/** Resolves both schemas against their documents, normalizes them and diffs them. */
export function diffSchemas(
  serverSchema: Json | undefined,
  serverDoc: Json,
  refSchema: Json | undefined,
  refDoc: Json,
  where: string,
): string[] {
  const s = normalize(serverSchema === undefined ? undefined : resolveRefs(serverSchema, serverDoc));
  const r = normalize(refSchema === undefined ? undefined : resolveRefs(refSchema, refDoc));
  return diffCanon(s, r, where);
}
