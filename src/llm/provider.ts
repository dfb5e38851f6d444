export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompletionOptions {
  /** Most tokens the answer may have. */
  maxTokens: number;
  /** Longest the call may take, ms (waiting for a local model's turn included); unset: the configured one. */
  timeoutMs?: number;
  /** Ends the call early, as a cancelled job does. */
  signal?: AbortSignal;
}

/**
 * A language model that completes a conversation. One call is one request: providers never retry, so a
 * failing or slow model costs each use one time-out and the use falls back to the deterministic output.
 * Failures are LlmErrors.
 */
export interface LlmProvider {
  /** What it asks, for logs and recorded results: the endpoint and model, or the GGUF file. */
  readonly description: string;
  /** The text of the model's answer to `messages`, the last of which is the user's. */
  complete(messages: readonly ChatMessage[], options: CompletionOptions): Promise<string>;
  /** Frees what the provider holds (a loaded model's weights). */
  close(): Promise<void>;
}
