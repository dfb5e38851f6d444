import { identifiersIn, unusableName, variablesIn } from './c-identifiers.js';
import { LlmError } from './llm-error.js';
import { unfenced } from './model-answer.js';
import { namesQuestion } from './prompts.js';
import type { LlmProvider } from './provider.js';

export interface NameSuggestions {
  /** A name for the function, or null when the model had none (or only an unusable one). */
  functionName: string | null;
  /** Variables of the function and the names suggested for them, each usable as it is. */
  variables: Array<{ name: string; suggestion: string }>;
  /** Suggestions left out, and why. */
  rejected: Array<{ name: string | null; suggestion: string; reason: string }>;
}

/** JSON names (~20 of ~12 tokens each) fit easily. */
const MAX_ANSWER_TOKENS = 512;

/** The answer as the JSON object the question asked for, or a malformed-answer error saying what is wrong. */
function parseAnswer(answer: string): { function_name: string | null; variables: Record<string, string> } {
  const bad = (why: string) =>
    new LlmError('malformed-answer', `name suggestions: ${why}: ${JSON.stringify(answer.slice(0, 200))}`, false);
  let parsed: unknown;
  try {
    parsed = JSON.parse(unfenced(answer));
  } catch {
    throw bad('the answer is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw bad('the answer is not an object');
  const { function_name: fn = null, variables = {}, ...extra } = parsed as Record<string, unknown>;
  if (Object.keys(extra).length) throw bad(`unexpected keys ${Object.keys(extra).join(', ')}`);
  if (fn !== null && typeof fn !== 'string') throw bad('function_name is neither a string nor null');
  if (typeof variables !== 'object' || variables === null || Array.isArray(variables))
    throw bad('variables is not an object');
  for (const v of Object.values(variables)) if (typeof v !== 'string') throw bad('a variable name is not a string');
  return { function_name: fn, variables: variables as Record<string, string> };
}

/**
 * Names the model suggests for the function and its variables. Every suggestion is checked before it is
 * returned: a C identifier that is no keyword, reserved name or type spelling; for a variable, one the
 * code really has, renamed to a name the code does not already use and no other suggestion takes, so that
 * applying all of them keeps the code meaning what it did. An answer that is not the strict JSON asked for
 * is an LlmError (`malformed-answer`).
 */
export async function suggestNames(
  provider: LlmProvider,
  functionC: string,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<NameSuggestions> {
  const answer = await provider.complete(namesQuestion(functionC), { ...options, maxTokens: MAX_ANSWER_TOKENS });
  const parsed = parseAnswer(answer);
  const out: NameSuggestions = { functionName: null, variables: [], rejected: [] };
  const used = identifiersIn(functionC);
  const variables = variablesIn(functionC);

  if (parsed.function_name !== null && parsed.function_name !== '') {
    const why = unusableName(parsed.function_name);
    if (why) out.rejected.push({ name: null, suggestion: parsed.function_name, reason: why });
    else out.functionName = parsed.function_name;
  }
  const taken = new Set(out.functionName ? [out.functionName] : []);
  for (const [name, suggestion] of Object.entries(parsed.variables)) {
    if (suggestion === name) continue;
    const why =
      unusableName(suggestion) ??
      (!variables.has(name) ? 'not a variable of the function' : null) ??
      (used.has(suggestion) ? 'already used in the function' : null) ??
      (taken.has(suggestion) ? 'suggested for another name too' : null);
    if (why) out.rejected.push({ name, suggestion, reason: why });
    else {
      taken.add(suggestion);
      out.variables.push({ name, suggestion });
    }
  }
  return out;
}
