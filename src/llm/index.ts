// Optional AI refinement of decompiled code (issue 12): a language model behind one interface, either an
// OpenAI-compatible chat-completions endpoint or a local GGUF file through the optional node-llama-cpp,
// and its three uses: a summary, name suggestions, a refined decompilation kept only if the unit still
// compiles. Off unless configured; nothing is downloaded. Imports shared/ only; the engine never imports it
// (its callers are the jobs that decompile, and main, which opens the provider from the config).
export type { ChatMessage, CompletionOptions, LlmProvider } from './provider.js';
export { LlmError, type LlmFailure } from './llm-error.js';
export { openLlmProvider } from './open-provider.js';
export { aiSummary, type SummaryContext } from './ai-summary.js';
export { suggestNames, type NameSuggestions } from './name-suggestions.js';
export {
  refineDecompilation,
  type RefinedDecompilation,
  type RefinementInput,
  type RefinementOptions,
} from './refine-decompilation.js';
