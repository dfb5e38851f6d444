import { LlmError } from './llm-error.js';
import { summaryQuestion } from './prompts.js';
import type { LlmProvider } from './provider.js';

export interface SummaryContext {
  /** The function's current name. */
  functionName: string;
  /** What the analysis knows, one fact per entry: calls, strings, constants, matched capabilities. */
  facts?: readonly string[];
}

/** Five sentences are ~150 tokens; the margin lets a wordy model finish its last one. */
const MAX_ANSWER_TOKENS = 320;

/**
 * A few sentences on what the decompiled function does, from the model, given the facts the analysis
 * knows (the deterministic summary's). An empty answer is an LlmError (`malformed-answer`).
 */
export async function aiSummary(
  provider: LlmProvider,
  functionC: string,
  context: SummaryContext,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<string> {
  const question = summaryQuestion(context.functionName, functionC, context.facts ?? []);
  const text = (await provider.complete(question, { ...options, maxTokens: MAX_ANSWER_TOKENS })).trim();
  if (!text)
    throw new LlmError('malformed-answer', `summary of ${context.functionName}: the model answered nothing`, false);
  return text;
}
