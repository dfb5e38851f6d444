// Which language model the optional AI refinement of decompiled code asks, if any. Named here because two
// layers need it: config/ reads it from the environment, llm/ opens the model it names.

/** An OpenAI-compatible chat-completions service (a local llama.cpp server, vLLM, Ollama, or a paid one). */
export interface ChatCompletionsSettings {
  kind: 'chat-completions';
  /** Base URL the API's paths hang from, without a trailing slash: `http://127.0.0.1:8000/v1`. */
  url: string;
  /** Sent as `Authorization: Bearer <key>`; null sends no Authorization header. */
  apiKey: string | null;
  /** The `model` of every request. */
  model: string;
  /** Longest one answer may take, ms, unless a call sets its own. */
  timeoutMs: number;
}

/** A GGUF model file on this machine, run on the CPU through the optional node-llama-cpp package. */
export interface GgufModelSettings {
  kind: 'gguf';
  /** Absolute path of the `.gguf` file. */
  modelPath: string;
  /** CPU threads llama.cpp computes with. */
  threads: number;
  timeoutMs: number;
}

export type LlmSettings = ChatCompletionsSettings | GgufModelSettings;

/** The environment variables that choose and configure the model. */
export const LLM_SETTINGS = {
  url: 'BINLENS_LLM_URL',
  apiKey: 'BINLENS_LLM_KEY',
  model: 'BINLENS_LLM_MODEL_NAME',
  modelPath: 'BINLENS_LLM_MODEL',
  threads: 'BINLENS_LLM_THREADS',
  timeoutMs: 'BINLENS_LLM_TIMEOUT_MS',
} as const;
