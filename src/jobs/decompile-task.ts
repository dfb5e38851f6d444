// Worker-thread entry of decompilation: reads the analysis's sample, decompiles the functions its job was asked
// for (and what they call) with the names the functions have now, and stores each function's C, placeholder
// form and summary, matched to the stored functions by address. Runs inside piscina, not on the API loop; only
// a count goes back.
import { readResultDocument, type StoredDecompilation } from '../contracts/index.js';
import { analyzeDecompilation, functionSummary, placeholderForm, type DecompiledFunction } from '../engine/index.js';
import type { DecompilationOutcome, Store } from '../store/index.js';
import { isPermanentFailure } from './failures.js';
import { readSample, type SampleInput } from './sample-input.js';
import { threadStore } from './thread-store.js';

export interface DecompileTaskInput extends SampleInput {
  /** Where the results go: the service's database (already migrated), the analysis and the job decompiling. */
  databaseUrl: string;
  analysisId: number;
  jobId: number;
}

/** Errors lose their class crossing the thread boundary, so a refusal that retrying cannot fix is data. */
export type DecompileTaskOutput =
  { kind: 'done'; asked: number; decompiled: number } | { kind: 'refused'; reason: string };

/** Strings of the analysis a summary names at most per function. */
const SUMMARY_STRINGS = 8;

export default async function decompileFunctions(input: DecompileTaskInput): Promise<DecompileTaskOutput> {
  const sample = await readSample(input);
  if (sample.kind === 'refused') return sample;
  try {
    const store = threadStore(input.databaseUrl);
    const asked = await store.functionDecompilations.claimed(input.jobId);
    if (asked.length === 0) return { kind: 'done', asked: 0, decompiled: 0 };
    // Taken before the names are read: a rename after this instant makes what is written here stale.
    const madeAt = Date.now();
    const functions = await store.functions.map(input.analysisId);
    const byAddress = new Map(functions.map((f) => [f.vaddr, f]));
    const wanted = asked.filter((v) => byAddress.has(v));
    const c = await analyzeDecompilation(
      sample.bytes,
      sample.options,
      wanted,
      undefined,
      new Map(functions.map((f) => [f.vaddr, f.name])),
    );
    const capabilities = capabilitiesByFunction(await store.events.result(input.analysisId));
    const outcomes: DecompilationOutcome[] = [];
    for (const f of c.functions) {
      const stored = byAddress.get(f.address);
      if (!stored) continue;
      if (f.text === null || f.prototype === null) {
        outcomes.push({ vaddr: f.address, result: null, error: f.error ?? 'not decompiled' });
        continue;
      }
      outcomes.push({
        vaddr: f.address,
        result: JSON.stringify(
          await storedDecompilation(
            store,
            f,
            { text: f.text, prototype: f.prototype },
            stored.id,
            capabilities.get(f.address) ?? [],
          ),
        ),
        error: null,
      });
    }
    await store.functionDecompilations.store(input.analysisId, input.jobId, madeAt, outcomes);
    return { kind: 'done', asked: asked.length, decompiled: outcomes.filter((o) => o.result).length };
  } catch (err) {
    if (isPermanentFailure(err)) return { kind: 'refused', reason: (err as Error).message };
    throw err;
  }
}

/** One function's stored decompilation: its C, placeholder form, and the summary of what the store knows of it. */
async function storedDecompilation(
  store: Store,
  f: DecompiledFunction,
  { text, prototype }: Pick<StoredDecompilation, 'text' | 'prototype'>,
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
  return { text, placeholders: form.text, mapping: form.mapping, summary, prototype };
}

/** The capability rules matched in each function (by address), from the analysis's result document. */
function capabilitiesByFunction(document: unknown): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const m of readResultDocument(document)?.capabilities?.matches ?? [])
    for (const vaddr of m.functions) out.set(vaddr, [...(out.get(vaddr) ?? []), m.rule]);
  return out;
}
