// ../shared/api/v3-notes.json: the /v3 operations the spec names, with the shapes later API versions
// published. Its `$ref`s are bare schema names; here they become local pointers, so the notes read as an
// OpenAPI-like document that reference-contract.ts's resolveRefs understands.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { isObject, type Json, type JsonObject } from './reference-contract.js';

export const V3_NOTES_FILE = path.resolve(process.cwd(), '..', 'shared', 'api', 'v3-notes.json');

export interface V3Operation {
  method: string;
  path: string;
  operationId: string;
  parameters: JsonObject[] | string;
  responses: { [status: string]: Json };
}

function pointers(node: Json): Json {
  if (Array.isArray(node)) return node.map(pointers);
  if (!isObject(node)) return node;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(node))
    out[k] = k === '$ref' && typeof v === 'string' && !v.startsWith('#') ? `#/components/schemas/${v}` : pointers(v);
  return out;
}

const raw = existsSync(V3_NOTES_FILE) ? (JSON.parse(readFileSync(V3_NOTES_FILE, 'utf8')) as JsonObject) : null;

/**
 * Schemas the notes name but could not recover (`unresolved_schemas`, e.g. TagSearchResultBody): any value,
 * so the rest of their operation's body is still checked.
 */
function unresolved(ops: Json): JsonObject {
  const out: JsonObject = {};
  for (const op of Array.isArray(ops) ? ops : [])
    if (isObject(op) && Array.isArray(op.unresolved_schemas))
      for (const name of op.unresolved_schemas) if (typeof name === 'string') out[name] = {};
  return out;
}

/**
 * The variants of a discriminated union the notes recovered only one of (DataTypeEntry: StructDataType, whose
 * note says "every variant shares these fields"): each missing variant is the recovered one with its own
 * discriminator value, so a body of any kind is checked against the shared fields.
 */
function variants(schemas: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const s of Object.values(schemas)) {
    const d = isObject(s) ? s.discriminator : undefined;
    if (!isObject(d) || !isObject(d.mapping)) continue;
    const names = Object.entries(d.mapping).filter((e): e is [string, string] => typeof e[1] === 'string');
    const known = names.map(([, n]) => schemas[n]).find(isObject);
    if (!known || !isObject(known.properties)) continue;
    for (const [value, name] of names)
      if (!(name in schemas))
        out[name] = {
          ...known,
          properties: { ...known.properties, [String(d.propertyName)]: { type: 'string', enum: [value] } },
        };
  }
  return out;
}

/** Every other schema the notes refer to but did not recover (a variant's `definition`…): any value. */
function missing(node: Json, schemas: JsonObject, out: JsonObject = {}): JsonObject {
  if (Array.isArray(node)) for (const n of node) missing(n, schemas, out);
  else if (isObject(node))
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && !(v in schemas)) out[v] = {};
      else missing(v, schemas, out);
    }
  return out;
}

const recovered = (raw?.schemas ?? {}) as JsonObject;
const completed = { ...recovered, ...variants(recovered) };

/** The notes as `{operations, components: {schemas}}`, refs made local; null when the file is absent. */
export const v3Notes: { operations: V3Operation[]; doc: JsonObject } | null = raw && {
  operations: pointers(raw.operations ?? []) as unknown as V3Operation[],
  doc: {
    components: {
      schemas: {
        ...unresolved(raw.operations ?? []),
        ...missing([completed, raw.operations ?? []], completed),
        ...(pointers(completed) as JsonObject),
      },
    },
  },
};

/** The notes' operation for a method (lower case) and path template. */
export const v3Operation = (method: string, template: string) =>
  v3Notes?.operations.find((o) => o.method.toLowerCase() === method && o.path === template);
