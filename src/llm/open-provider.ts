import type { LlmSettings } from '../shared/llm-settings.js';
import { chatCompletionsProvider } from './chat-completions-provider.js';
import { ggufProvider } from './gguf-provider.js';
import type { LlmProvider } from './provider.js';

/**
 * The provider the settings name, or null when AI refinement is off. Opening does no I/O: a GGUF model is
 * loaded by its first call, so a server whose model is missing still starts and serves the deterministic
 * output, and the first use reports why the model could not be used.
 */
export function openLlmProvider(settings: LlmSettings | null): LlmProvider | null {
  if (settings === null) return null;
  switch (settings.kind) {
    case 'chat-completions':
      return chatCompletionsProvider(settings);
    case 'gguf':
      return ggufProvider(settings);
  }
}
