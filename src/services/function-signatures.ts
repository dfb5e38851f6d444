// Function signatures (/v3): a function's prototype with its types named by id in its analysis's type table —
// read for many functions at once, changed by the analysis's owner, or copied from other functions (of this
// analysis or of any the caller can see, a similarity match's for instance). A change is a new version of the
// function's data types, as a /v2 PUT makes, without the version check (the notes' bodies carry no version).
import type { Static } from '@sinclair/typebox';
import type {
  V3CopySignaturesBody,
  V3FunctionSignature,
  V3ListSignaturesQuery,
  V3UpdateSignatureBody,
} from '../contracts/index.js';
import { declareFunction, entryDependency, normaliseSpelling, typesOfRecord } from '../shared/data-type-spelling.js';
import { errors, type FieldProblem } from '../shared/errors.js';
import type { FunctionTypesRecord, TypedValue } from '../shared/type-records.js';
import { servedRecord, type DataTypeRow, type FunctionDataTypesRow, type Store } from '../store/index.js';
import { ownedAnalysis, type Caller } from './access.js';
import { v3DataType } from './analysis-data-types.js';
import type { DataTypesService } from './data-types.js';
import { isoTime, tableEntry, type TypedFunction } from './data-types-wire.js';

type Signature = Static<typeof V3FunctionSignature>;
type Parameter = NonNullable<Static<typeof V3UpdateSignatureBody>['parameters']>[number];

/** Functions one GET /v3/functions/signatures may name (the other function-id lists' bound). */
const MAX_FUNCTIONS = 10_000;

/** A function's signature on the wire; `ids` gives the type-table id of each spelling. */
function signatureOf(fn: TypedFunction, row: FunctionDataTypesRow | undefined, ids: Map<string, number>): Signature {
  const r = row && servedRecord(row);
  if (!row || !r) return { function_id: fn.id, function_name: fn.name, has_signature: false, parameters: null };
  const id = (type: string) => ids.get(normaliseSpelling(type));
  const made = row.edited === null ? row.generated_at : row.last_change;
  const returns = id(r.returnType);
  return {
    calling_convention: r.convention,
    ...(made === null ? {} : { created_at: isoTime(made)! }),
    function_id: fn.id,
    function_name: fn.name,
    has_signature: true,
    parameters: r.args.map((a) => {
      const typeId = id(a.type);
      return {
        ordinal: a.offset,
        name: a.name,
        bit_length: a.size * 8,
        ...(typeId === undefined ? {} : { data_type_id: typeId }),
      };
    }),
    ...(returns === undefined ? {} : { return_data_type_id: returns }),
    ...(row.source_function_id === null ? {} : { source_function_id: row.source_function_id }),
    source_type: row.edited === null ? 'SYSTEM' : 'USER',
  };
}

/** The type-table entries of `types` rows, once each, as DataTypeEntry. */
const distinctTypes = (types: DataTypeRow[]) => [...new Map(types.map((t) => [t.id, t])).values()].map(v3DataType);

export class FunctionSignaturesService {
  constructor(
    private readonly store: Store,
    private readonly dataTypes: DataTypesService,
  ) {}

  /** Signatures of many functions the caller can see, with the types they use when asked. */
  async list(caller: Caller, q: Static<typeof V3ListSignaturesQuery>) {
    const ids = [...new Set(q.function_ids.split(',').map(Number))];
    if (ids.length > MAX_FUNCTIONS)
      throw errors
        .validation()
        .withFields([{ field: 'querystring.function_ids', reason: `names more than ${MAX_FUNCTIONS} functions` }]);
    const fns = await this.dataTypes.visibleFunctions(caller, ids);
    const items = new Map<number, Signature & { analysis_id: number }>();
    const groups = [];
    for (const analysisId of new Set(fns.map((f) => f.analysis_id))) {
      const own = fns.filter((f) => f.analysis_id === analysisId);
      for (const s of await this.signatures(analysisId, own))
        items.set(s.function_id, { analysis_id: analysisId, ...s });
      if (q.include_data_types) {
        const used = await this.store.analysisDataTypes.usedBy(
          analysisId,
          own.map((f) => f.vaddr),
        );
        groups.push({ analysis_id: analysisId, items: distinctTypes(used) });
      }
    }
    return { items: fns.map((f) => items.get(f.id)!), ...(q.include_data_types ? { data_types: groups } : {}) };
  }

  /**
   * The owner's new signature for a function: parameters by ordinal (0, 1, … each once), each type by its id in
   * the analysis's type table. What a parameter leaves out it keeps from the current one at that ordinal; a
   * missing return type or convention keeps the current one; `parameters: null` keeps them all.
   */
  async update(caller: Caller, analysisId: number, functionId: number, body: Static<typeof V3UpdateSignatureBody>) {
    await ownedAnalysis(this.store, caller, analysisId);
    const [fn] = await this.dataTypes.functionsIn(analysisId, [functionId]);
    const row = (await this.store.functionDataTypes.rows(analysisId, [fn!.vaddr]))[0];
    const previous = row ? servedRecord(row) : null;
    const typeIds = [...(body.parameters ?? []).map((p) => p.data_type_id), body.return_data_type_id];
    const table = new Map(
      (
        await this.store.analysisDataTypes.byIds(
          analysisId,
          typeIds.filter((t) => t !== undefined),
        )
      ).map((t) => [t.id, t]),
    );
    const problems: FieldProblem[] = [];
    const typeOf = (id: number | undefined, field: string) => {
      if (id === undefined) return undefined;
      const t = table.get(id);
      if (!t) problems.push({ field, reason: `is not a data type of analysis ${analysisId}` });
      return t;
    };
    const returns = typeOf(body.return_data_type_id, 'body.return_data_type_id');
    const args = body.parameters
      ? this.parameters(body.parameters, previous, typeOf, problems)
      : (previous?.args ?? []);
    if (problems.length) throw errors.validation().withFields(problems);
    await this.write(caller, analysisId, fn!, row, {
      returnType: returns?.name ?? previous?.returnType ?? 'void',
      args,
      convention: body.calling_convention ?? previous?.convention ?? 'unknown',
    });
    return (await this.signatures(analysisId, [fn!]))[0]!;
  }

  /**
   * Gives a function of an analysis the caller owns the types in `change` — the return type, and parameter types
   * by ordinal — keeping the rest of its prototype; a parameter it lacks is added (named as the decompiler names
   * it), with its type from `change.fallback` when `change.params` has none. A new version of its data types, as
   * update() makes, by spelling rather than by type id.
   */
  async applyTypes(
    caller: Caller,
    functionId: number,
    change: {
      returns?: { type: string; size: number };
      params: Map<number, { type: string; size: number }>;
      fallback: { type: string; size: number }[];
    },
  ): Promise<void> {
    const [fn] = await this.dataTypes.visibleFunctions(caller, [functionId]);
    await ownedAnalysis(this.store, caller, fn!.analysis_id);
    const row = (await this.store.functionDataTypes.rows(fn!.analysis_id, [fn!.vaddr]))[0];
    const previous = row ? servedRecord(row) : null;
    const count = Math.max(
      previous?.args.length ?? 0,
      change.fallback.length,
      ...[...change.params.keys()].map((o) => o + 1),
    );
    const args = Array.from({ length: count }, (_, offset): TypedValue => {
      const old = previous?.args.find((a) => a.offset === offset);
      const t = change.params.get(offset) ?? (old ? undefined : change.fallback[offset]);
      return {
        name: old?.name ?? `a${offset + 1}`,
        type: t?.type ?? old?.type ?? '',
        size: t?.size ?? old?.size ?? 0,
        offset,
      };
    });
    await this.write(caller, fn!.analysis_id, fn!, row, {
      returnType: change.returns?.type ?? previous?.returnType ?? 'void',
      args,
      convention: previous?.convention ?? 'unknown',
    });
  }

  /** A new version of the function's data types with this prototype; its stack variables and types stay. */
  private async write(
    caller: Caller,
    analysisId: number,
    fn: TypedFunction,
    row: FunctionDataTypesRow | undefined,
    p: { returnType: string; args: TypedValue[]; convention: string },
  ): Promise<void> {
    const previous = row ? servedRecord(row) : null;
    const variadic = previous?.variadic ?? false;
    const record: FunctionTypesRecord = {
      vaddr: fn.vaddr,
      size: fn.size,
      name: fn.name,
      declaration: declareFunction(p.returnType, fn.name, p.args, variadic),
      returnType: p.returnType,
      args: p.args,
      variadic,
      convention: p.convention,
      stackVars: previous?.stackVars ?? [],
      deps: previous?.deps ?? [],
      source: 'user',
    };
    const out = await this.store.functionDataTypes.edit({
      analysisId,
      vaddr: fn.vaddr,
      record,
      userId: caller.id,
      expected: null,
      from: null,
    });
    // Only when another change landed between this one's read and write.
    if ('conflict' in out) throw errors.dataTypesVersionConflict(fn.id, row?.version ?? 0, out.conflict);
  }

  /** The new parameters, by ordinal, from the request and what the function has now. */
  private parameters(
    params: Parameter[],
    previous: FunctionTypesRecord | null,
    typeOf: (id: number | undefined, field: string) => DataTypeRow | undefined,
    problems: FieldProblem[],
  ): TypedValue[] {
    const sorted = params.map((p, i) => ({ p, i })).sort((a, b) => a.p.ordinal - b.p.ordinal);
    return sorted.map(({ p, i }, position) => {
      const field = `body.parameters.${i}`;
      if (p.ordinal !== position)
        problems.push({ field: `${field}.ordinal`, reason: `must be ${position}: ordinals run 0, 1, … each once` });
      const old = previous?.args.find((a) => a.offset === p.ordinal);
      const t = typeOf(p.data_type_id, `${field}.data_type_id`);
      const type = t?.name ?? old?.type;
      if (type === undefined && p.data_type_id === undefined)
        problems.push({
          field: `${field}.data_type_id`,
          reason: `is required: the function has no parameter ${p.ordinal} to keep the type of`,
        });
      const size = p.bit_length === undefined ? (t ? (t.size ?? 0) : (old?.size ?? 0)) : Math.ceil(p.bit_length / 8);
      return { name: p.name ?? old?.name ?? `a${p.ordinal + 1}`, type: type ?? '', size, offset: p.ordinal };
    });
  }

  /**
   * Copies signatures (return type, parameters, convention and the structures, unions, enumerations and typedefs
   * they use) onto functions of this analysis, which keep their names and stack variables. Sources may be
   * functions of any analysis the caller can see and need data types (409 otherwise); the types they bring join
   * this analysis's table without replacing its own definitions.
   */
  async copy(caller: Caller, analysisId: number, body: Static<typeof V3CopySignaturesBody>) {
    await ownedAnalysis(this.store, caller, analysisId);
    const copies = body.copies ?? [];
    const targets = new Map(
      (
        await this.dataTypes.functionsIn(
          analysisId,
          copies.map((c) => c.target_function_id),
        )
      ).map((f) => [f.id, f]),
    );
    const twice = copies.find((c, i) => copies.findIndex((o) => o.target_function_id === c.target_function_id) !== i);
    if (twice)
      throw errors
        .validation()
        .withFields([{ field: 'body.copies', reason: `copies onto function ${twice.target_function_id} twice` }]);
    const sources = new Map(
      (
        await this.dataTypes.visibleFunctions(
          caller,
          copies.map((c) => c.source_function_id),
        )
      ).map((f) => [f.id, f]),
    );
    const copied = new Map<number, FunctionTypesRecord>();
    for (const s of sources.values()) {
      const row = (await this.store.functionDataTypes.rows(s.analysis_id, [s.vaddr]))[0];
      const record = row ? servedRecord(row) : null;
      if (!record) throw errors.noDataTypes(s.id);
      const used = await this.store.analysisDataTypes.usedBy(s.analysis_id, [s.vaddr]);
      const deps = used.map((t) => entryDependency(tableEntry(t))).filter((d) => d !== null);
      copied.set(s.id, { ...record, deps });
    }
    for (const c of copies) {
      const t = targets.get(c.target_function_id)!;
      const s = sources.get(c.source_function_id)!;
      const src = copied.get(s.id)!;
      const row = (await this.store.functionDataTypes.rows(analysisId, [t.vaddr]))[0];
      const kept = row ? servedRecord(row) : null;
      const out = await this.store.functionDataTypes.edit({
        analysisId,
        vaddr: t.vaddr,
        record: {
          ...src,
          vaddr: t.vaddr,
          size: t.size,
          name: t.name,
          declaration: declareFunction(src.returnType, t.name, src.args, src.variadic),
          stackVars: kept?.stackVars ?? [],
          source: 'user',
        },
        userId: caller.id,
        expected: null,
        from: { analysisId: s.analysis_id, functionId: s.id },
      });
      if ('conflict' in out) throw errors.dataTypesVersionConflict(t.id, row?.version ?? 0, out.conflict);
    }
    const fns = [...targets.values()];
    const used = await this.store.analysisDataTypes.usedBy(
      analysisId,
      fns.map((f) => f.vaddr),
    );
    return { data_types: distinctTypes(used), signatures: await this.signatures(analysisId, fns) };
  }

  /** Signatures of functions of one analysis, their types named by id in its table. */
  private async signatures(analysisId: number, fns: TypedFunction[]): Promise<Signature[]> {
    const rows = new Map(
      (
        await this.store.functionDataTypes.rows(
          analysisId,
          fns.map((f) => f.vaddr),
        )
      ).map((r) => [r.vaddr, r]),
    );
    const names = [...rows.values()].flatMap((r) => {
      const record = servedRecord(r);
      return record ? typesOfRecord(record).map((e) => e.name) : [];
    });
    const ids = new Map((await this.store.analysisDataTypes.byNames(analysisId, names)).map((t) => [t.name, t.id]));
    return fns.map((f) => signatureOf(f, rows.get(f.vaddr), ids));
  }
}
