// The optional language model's part of a function's decompilation, in the decompile thread: a summary in
// prose, names, and a rewrite kept only when it compiles in the function's own unit and still resolves
// through the placeholder maps. A model that fails or is slow never fails the decompilation: what it did
// not give is a problem recorded with the result, and the deterministic C stands (docs/decisions.md,
// "AI refinement").
import type { StoredModelRefinement } from '../contracts/index.js';
import { placeholderForm, type DecompiledFunction } from '../engine/index.js';
import {
  aiSummary,
  LlmError,
  openLlmProvider,
  refineDecompilation,
  suggestNames,
  type LlmProvider,
} from '../llm/index.js';
import type { LlmSettings } from '../shared/llm-settings.js';
import { proseWithPlaceholders, renamedVariables, spelledOut } from './placeholder-text.js';

/** What the model is asked about: the function as the decompiler wrote it, in its own unit. */
export interface ModelQuestion {
  fn: Pick<DecompiledFunction, 'name' | 'symbols'> & { text: string };
  /** A unit holding the function and what it needs (declarations, helpers, data), for the compile check. */
  unit: string;
  /** The deterministic summary: the facts the model's summary starts from. */
  summary: string;
}

type PlaceholderForm = ReturnType<typeof placeholderForm>;

/** The function's C as served — the model's rewrite or the decompiler's — and what the model added. */
export interface ModelOutcome {
  text: string;
  form: PlaceholderForm;
  model: StoredModelRefinement;
}

/** The provider of this thread, opened once for its settings (a GGUF model's weights load on first use). */
let opened: { key: string; provider: LlmProvider | null } | null = null;

export function threadProvider(settings: LlmSettings | null): LlmProvider | null {
  const key = JSON.stringify(settings);
  if (opened?.key !== key) {
    void opened?.provider?.close();
    opened = { key, provider: openLlmProvider(settings) };
  }
  return opened.provider;
}

/**
 * Asks the model for the function's summary, names and rewrite at once (a remote model answers them in
 * parallel; a local one takes them in turn). Each call gets the configured time-out, shortened to what is
 * left before `deadline`: the job's model calls share a budget so that the decompile thread ends within
 * its time limit whatever the model does.
 */
export async function askModel(
  provider: LlmProvider,
  question: ModelQuestion,
  budget: { deadline: number; callTimeoutMs: number },
): Promise<ModelOutcome> {
  const { fn, unit } = question;
  const problems: string[] = [];
  const ask = async <T>(use: string, call: (timeoutMs: number) => Promise<T>): Promise<T | null> => {
    const left = Math.min(budget.deadline - Date.now(), budget.callTimeoutMs);
    if (left <= 0) {
      problems.push(`${use}: not asked: the job's time for model calls was spent`);
      return null;
    }
    try {
      return await call(left);
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      problems.push(`${use}: ${err.message}`);
      return null;
    }
  };
  const [summary, names, rewrite] = await Promise.all([
    ask('summary', (timeoutMs) =>
      aiSummary(provider, fn.text, { functionName: fn.name, facts: [question.summary] }, { timeoutMs }),
    ),
    ask('names', (timeoutMs) => suggestNames(provider, fn.text, { timeoutMs })),
    ask('refinement', (timeoutMs) =>
      refineDecompilation(provider, { name: fn.name, functionC: fn.text, unitSource: unit }, { timeoutMs }),
    ),
  ]);

  let text = fn.text;
  let form = placeholderForm(fn.text, fn.symbols);
  let refined = false;
  if (rewrite?.refined) {
    // The engine's placeholders over the rewrite: the same symbols, so its calls and data link as before.
    const candidate = placeholderForm(rewrite.code, fn.symbols);
    if (spelledOut(candidate.text, candidate.mapping) === rewrite.code) {
      text = rewrite.code;
      form = candidate;
      refined = true;
    } else problems.push("refinement: the rewrite's placeholder form does not spell it back");
  } else if (rewrite) problems.push(`refinement: ${rewrite.reason}`);
  // Without a rewrite, the suggested variable names go through the maps, as a client's rename would.
  if (!refined && names?.variables.length) {
    const mapping = renamedVariables(form.mapping, names.variables);
    text = spelledOut(form.text, mapping) ?? text;
    form = { text: form.text, mapping };
  }
  return {
    text,
    form,
    model: {
      description: provider.description,
      summary,
      rawSummary: summary === null ? null : proseWithPlaceholders(summary, form.mapping),
      functionName: names?.functionName ?? null,
      refined,
      problems,
    },
  };
}
