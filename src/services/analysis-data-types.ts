// An analysis's type table (/v3 …/data-types): listed by whoever can see the analysis, with the functions using
// each type; types defined and redefined by its owner. Generation fills the table with every type its
// functions' data types spell (SYSTEM); people's types are USER (docs/decisions.md, "Data types").
import type { Static } from '@sinclair/typebox';
import type {
  V3CreateDataTypesBody,
  V3DataType,
  V3DataTypeFunctionsQuery,
  V3ListDataTypesQuery,
  V3UpdateDataTypesBody,
} from '../contracts/index.js';
import {
  normaliseSpelling,
  spellingKind,
  type DataTypeDefinition,
  type DataTypeKind,
} from '../shared/data-type-spelling.js';
import { errors, type FieldProblem } from '../shared/errors.js';
import type { DataTypeRow, DefinedDataType, Store } from '../store/index.js';
import { ownedAnalysis, visibleAnalysis, type Caller } from './access.js';
import { isoTime } from './data-types-wire.js';

type Defined = NonNullable<Static<typeof V3CreateDataTypesBody>['data_types']>[number];

/** A type-table entry on the wire (DataTypeEntry); optional fields are left out when unknown. */
export function v3DataType(t: DataTypeRow): Static<typeof V3DataType> {
  return {
    created_at: isoTime(t.created_at)!,
    data_type_id: t.id,
    ...(t.definition === null ? {} : { definition: JSON.parse(t.definition) as DataTypeDefinition }),
    has_definition: t.definition !== null,
    kind: t.kind as DataTypeKind,
    name: t.name,
    namespace: t.namespace,
    ...(t.size === null ? {} : { size: t.size }),
    ...(t.source_analysis_id === null ? {} : { source_analysis_id: t.source_analysis_id }),
    ...(t.source_function_id === null ? {} : { source_function_id: t.source_function_id }),
    source_type: t.source_type as Static<typeof V3DataType>['source_type'],
  };
}

/** Which fields of a definition each kind takes; `members` holds member objects (structures) or numbers (enums). */
const DEFINITION_FIELDS: Record<DataTypeKind, (keyof DataTypeDefinition)[]> = {
  STRUCT: ['members'],
  UNION: ['members'],
  ENUM: ['members'],
  TYPEDEF: ['type'],
  POINTER: ['type'],
  FUNCTION_DEFINITION: ['type'],
  ARRAY: ['type', 'count'],
  BITFIELD: ['type', 'bit_size'],
  BASE: [],
  UNKNOWN: [],
};

const KEYWORD: Partial<Record<DataTypeKind, string>> = { STRUCT: 'struct', UNION: 'union', ENUM: 'enum' };

/**
 * A person's type as stored, or what is wrong with it: a structure's, union's or enumeration's name is spelled
 * with its keyword (`stream` becomes `struct stream`, as signatures spell it), and a definition has exactly the
 * fields of its kind.
 */
function defined(e: Defined, field: string, problems: FieldProblem[]): DefinedDataType {
  let name = normaliseSpelling(e.name);
  const keyword = KEYWORD[e.kind];
  const spelled = spellingKind(name);
  // A bare tag takes its keyword; a spelling of another tagged kind (or, for a tagged kind, of anything but a tag)
  // contradicts the kind.
  if (keyword && spelled === 'UNKNOWN') name = `${keyword} ${name}`;
  else if (spelled !== e.kind && (keyword || spelled in KEYWORD))
    problems.push({ field: `${field}.name`, reason: `spells a ${spelled.toLowerCase()} but kind is ${e.kind}` });
  const d = e.definition ?? null;
  if (d) {
    const wanted = DEFINITION_FIELDS[e.kind];
    for (const k of Object.keys(d) as (keyof DataTypeDefinition)[])
      if (!wanted.includes(k))
        problems.push({ field: `${field}.definition.${k}`, reason: `is not part of a ${e.kind}` });
    for (const k of wanted)
      if (d[k] === undefined)
        problems.push({ field: `${field}.definition.${k}`, reason: `is required for a ${e.kind}` });
    const enumValues = e.kind === 'ENUM';
    for (const [k, m] of Object.entries(d.members ?? {}))
      if ((typeof m === 'number') !== enumValues)
        problems.push({
          field: `${field}.definition.members.${k}`,
          reason: enumValues ? 'must be an integer value' : 'must be a member {name, offset, type, size}',
        });
  }
  return { name, namespace: e.namespace ?? '', kind: e.kind, size: e.size ?? null, definition: d };
}

/** All the entries of a body, or a 422 naming every problem; 409 when one name comes twice. */
function definedAll<T extends Defined>(entries: T[]): (DefinedDataType & Omit<T, keyof Defined>)[] {
  const problems: FieldProblem[] = [];
  const out = entries.map((e, i) => ({ ...e, ...defined(e, `body.data_types.${i}`, problems) }));
  if (problems.length) throw errors.validation().withFields(problems);
  const twice = out.find((e, i) => out.findIndex((o) => o.name === e.name) !== i);
  if (twice) throw errors.dataTypeExists(twice.name);
  return out;
}

export class AnalysisDataTypesService {
  constructor(private readonly store: Store) {}

  async list(caller: Caller, analysisId: number, q: Static<typeof V3ListDataTypesQuery>) {
    await visibleAnalysis(this.store, caller, analysisId);
    const { rows, total } = await this.store.analysisDataTypes.list(analysisId, {
      kinds: q.kind,
      namespaces: q.namespace,
      search: q.search,
      sourceTypes: q.source_type,
      orderBy: q.order_by ?? 'name',
      order: q.order === 'DESC' ? 'desc' : 'asc',
      offset: q.offset ?? 0,
      limit: q.limit ?? 100,
    });
    return { items: rows.map(v3DataType), total_count: total };
  }

  async create(caller: Caller, analysisId: number, body: Static<typeof V3CreateDataTypesBody>) {
    await ownedAnalysis(this.store, caller, analysisId);
    const rows = await this.store.analysisDataTypes.create(analysisId, definedAll(body.data_types ?? []));
    return { data_types: rows.map(v3DataType) };
  }

  /** Replaces types by id; a type functions use keeps its name (their data types spell it). */
  async update(caller: Caller, analysisId: number, body: Static<typeof V3UpdateDataTypesBody>) {
    await ownedAnalysis(this.store, caller, analysisId);
    const entries = definedAll(body.data_types ?? []);
    const twice = entries.find((e, i) => entries.findIndex((o) => o.data_type_id === e.data_type_id) !== i);
    if (twice)
      throw errors
        .validation()
        .withFields([{ field: 'body.data_types', reason: `names data type ${twice.data_type_id} twice` }]);
    const rows = await this.store.analysisDataTypes.update(
      analysisId,
      entries.map((e) => ({ ...e, id: e.data_type_id })),
    );
    return { data_types: rows.map(v3DataType) };
  }

  /** The analysis's functions using a type, by function id: a keyset page (`next_after_function_id`). */
  async functions(caller: Caller, analysisId: number, dataTypeId: number, q: Static<typeof V3DataTypeFunctionsQuery>) {
    await visibleAnalysis(this.store, caller, analysisId);
    if (!(await this.store.analysisDataTypes.byIds(analysisId, [dataTypeId])).length)
      throw errors.dataTypeNotFound(dataTypeId, analysisId);
    const size = q.page_size ?? 100;
    const rows = await this.store.analysisDataTypes.functionsUsing(
      analysisId,
      dataTypeId,
      q.after_function_id ?? 0,
      size + 1,
    );
    const items = rows.slice(0, size).map((f) => ({ function_id: f.id, function_name: f.name }));
    return { items, ...(rows.length > size ? { next_after_function_id: items.at(-1)!.function_id } : {}) };
  }
}
