// Worker-thread entry of decompilation: reads the analysis's sample, decompiles the functions its job was asked
// for (and what they call) with the names the functions have now, and stores each function's C, placeholder
// form and summary, matched to the stored functions by address; functions asked for with the language model
// (a per-function request while one is configured) also get its summary, names and rewrite. Runs inside
// piscina, not on the API loop; only counts go back.
import { readResultDocument, type StoredDecompilation } from '../contracts/index.js';
import { analyzeDecompilation, functionSummary, placeholderForm, type DecompiledFunction } from '../engine/index.js';
import type { LlmProvider } from '../llm/index.js';
import type { LlmSettings } from '../shared/llm-settings.js';
import { servedRecord, tableEntry, type DecompilationOutcome, type Store } from '../store/index.js';
import { entryDependency } from '../shared/data-type-spelling.js';
import type { FunctionTypesRecord, TypeDependencyRecord } from '../shared/type-records.js';
import { isPermanentFailure } from './failures.js';
import { askModel, threadProvider } from './model-refinement.js';
import { readSample, type SampleInput } from './sample-input.js';
import { threadStore } from './thread-store.js';

export interface DecompileTaskInput extends SampleInput {
  /** Where the results go: the service's database (already migrated), the analysis and the job decompiling. */
  databaseUrl: string;
  analysisId: number;
  jobId: number;
  /** The language model functions asked for with it are shown to; null: none is configured. */
  llm: LlmSettings | null;
  /** How long the job's model calls may take together, ms from the thread's start. */
  modelBudgetMs: number;
}

/** Errors lose their class crossing the thread boundary, so a refusal that retrying cannot fix is data. */
export type DecompileTaskOutput =
  | { kind: 'done'; asked: number; decompiled: number; withModel: number; refined: number; model: string | null }
  | { kind: 'refused'; reason: string };

/** Strings of the analysis a summary names at most per function. */
const SUMMARY_STRINGS = 8;

export default async function decompileFunctions(input: DecompileTaskInput): Promise<DecompileTaskOutput> {
  const deadline = Date.now() + input.modelBudgetMs;
  const sample = await readSample(input);
  if (sample.kind === 'refused') return sample;
  try {
    const store = threadStore(input.databaseUrl);
    const provider = threadProvider(input.llm);
    const claimed = await store.functionDecompilations.claimed(input.jobId);
    const none = { kind: 'done', asked: 0, decompiled: 0, withModel: 0, refined: 0, model: null } as const;
    if (claimed.length === 0) return none;
    // Taken before the names are read: a rename after this instant makes what is written here stale.
    const madeAt = Date.now();
    const functions = await store.functions.map(input.analysisId);
    const byAddress = new Map(functions.map((f) => [f.vaddr, f]));
    const wanted = claimed.map((r) => r.vaddr).filter((v) => byAddress.has(v));
    const names = new Map(functions.map((f) => [f.vaddr, f.name]));
    const edited = await editedTypes(
      store,
      input.analysisId,
      functions.map((f) => f.vaddr),
    );
    const c = await analyzeDecompilation(sample.bytes, sample.options, wanted, undefined, names, edited);
    const withModel = new Set(provider ? claimed.filter((r) => r.withModel).map((r) => r.vaddr) : []);
    /**
     * The function's own unit (it and what it reaches, as `binlens decompile <file> <function>` writes it):
     * the job's when it asked for this function alone, else decompiled again with the function as the root,
     * so gcc checks a rewrite against kilobytes, not a whole binary's unit.
     */
    const ownUnit = async (vaddr: number) =>
      wanted.length === 1
        ? c.source
        : (await analyzeDecompilation(sample.bytes, sample.options, [vaddr], undefined, names, edited)).source;
    const capabilities = capabilitiesByFunction(await store.events.result(input.analysisId));
    const outcomes: DecompilationOutcome[] = [];
    let refined = 0;
    for (const f of c.functions) {
      const stored = byAddress.get(f.address);
      if (!stored) continue;
      if (f.text === null || f.prototype === null) {
        outcomes.push({ vaddr: f.address, result: null, error: f.error ?? 'not decompiled' });
        continue;
      }
      let result = await storedDecompilation(
        store,
        f,
        { text: f.text, prototype: f.prototype, lines: f.lines },
        stored.id,
        capabilities.get(f.address) ?? [],
      );
      if (provider && withModel.has(f.address)) {
        const budget = { deadline, callTimeoutMs: input.llm!.timeoutMs };
        result = await withModelRefinement(provider, f, result, await ownUnit(f.address), budget);
        if (result.model?.refined) refined++;
        for (const problem of result.model?.problems ?? [])
          await store.events.log(input.analysisId, `Decompilation: ${f.name}: model: ${problem}`);
      }
      outcomes.push({ vaddr: f.address, result: JSON.stringify(result), error: null });
    }
    await store.functionDecompilations.store(input.analysisId, input.jobId, madeAt, outcomes);
    return {
      kind: 'done',
      asked: claimed.length,
      decompiled: outcomes.filter((o) => o.result).length,
      withModel: withModel.size,
      refined,
      model: provider?.description ?? null,
    };
  } catch (err) {
    if (isPermanentFailure(err)) return { kind: 'refused', reason: (err as Error).message };
    throw err;
  }
}

/**
 * The data types the analysis's owner gave functions, by address, each with the definitions its types use
 * from the analysis's type table (a record stores only its globals).
 */
async function editedTypes(
  store: Store,
  analysisId: number,
  vaddrs: number[],
): Promise<Map<number, FunctionTypesRecord>> {
  const rows = (await store.functionDataTypes.rows(analysisId, vaddrs)).filter((r) => r.edited !== null);
  const definitions = new Map<number, TypeDependencyRecord[]>();
  for (const t of await store.analysisDataTypes.usedBy(
    analysisId,
    rows.map((r) => r.vaddr),
  )) {
    const d = entryDependency(tableEntry(t));
    if (d) definitions.set(t.vaddr, [...(definitions.get(t.vaddr) ?? []), d]);
  }
  return new Map(
    rows.map((r) => {
      const record = servedRecord(r)!;
      return [r.vaddr, { ...record, deps: [...record.deps, ...(definitions.get(r.vaddr) ?? [])] }];
    }),
  );
}

/** The stored decompilation with the model's summary, names and (when it compiled) rewrite. */
async function withModelRefinement(
  provider: LlmProvider,
  f: DecompiledFunction,
  det: StoredDecompilation,
  unit: string,
  budget: { deadline: number; callTimeoutMs: number },
): Promise<StoredDecompilation> {
  const question = { fn: { name: f.name, symbols: f.symbols, text: det.text }, unit, summary: det.summary };
  const outcome = await askModel(provider, question, budget);
  // The decompiler's line map fits its own text; renamed variables (identifiers) keep its lines, a rewrite not.
  const { lines, ...rest } = det;
  return {
    ...rest,
    ...(outcome.model.refined ? {} : { lines }),
    text: outcome.text,
    placeholders: outcome.form.text,
    mapping: outcome.form.mapping,
    model: outcome.model,
  };
}

/** One function's stored decompilation: its C, placeholder form, and the summary of what the store knows of it. */
async function storedDecompilation(
  store: Store,
  f: DecompiledFunction,
  { text, prototype, lines }: Pick<StoredDecompilation, 'text' | 'prototype' | 'lines'>,
  functionId: number,
  capabilities: string[],
): Promise<StoredDecompilation> {
  const form = placeholderForm(text, f.symbols);
  const [callers, callees, strings] = await Promise.all([
    store.functions.callers(functionId),
    store.functions.callees(functionId),
    store.strings.ofFunction(functionId, { offset: 0, limit: SUMMARY_STRINGS }),
  ]);
  const summary = functionSummary({
    name: f.name,
    symbols: f.symbols,
    text,
    strings: strings.rows.map((s) => s.value),
    capabilities,
    callers: [...new Set(callers.map((x) => x.caller_name))],
    callees: [...new Set(callees.map((x) => x.callee_name).filter((n) => n !== null))],
  });
  return { text, placeholders: form.text, mapping: form.mapping, summary, prototype, lines };
}

/** The capability rules matched in each function (by address), from the analysis's result document. */
function capabilitiesByFunction(document: unknown): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const m of readResultDocument(document)?.capabilities?.matches ?? [])
    for (const vaddr of m.functions) out.set(vaddr, [...(out.get(vaddr) ?? []), m.rule]);
  return out;
}
