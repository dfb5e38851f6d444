import { open } from 'node:fs/promises';
import type { GgufModelSettings } from '../shared/llm-settings.js';
import { callDeadline } from './call-deadline.js';
import { LlmError } from './llm-error.js';
import type { ChatMessage, CompletionOptions, LlmProvider } from './provider.js';

// node-llama-cpp is an optional dependency: the build must not need its types (an install without optional
// dependencies still builds), so what is used of it is declared here, and it is imported by a name the
// compiler does not resolve.
const PACKAGE = 'node-llama-cpp';

type HistoryItem = { type: 'system' | 'user'; text: string } | { type: 'model'; response: string[] };
interface ChatSession {
  setChatHistory(history: HistoryItem[]): void;
  prompt(text: string, options: { maxTokens: number; temperature: number; signal: AbortSignal }): Promise<string>;
}
interface Context {
  getSequence(): unknown;
  dispose(): Promise<void>;
}
interface Model {
  createContext(options: { contextSize: { max: number } }): Promise<Context>;
}
interface Llama {
  loadModel(options: { modelPath: string; gpuLayers: number }): Promise<Model>;
  dispose(): Promise<void>;
}
interface NodeLlamaCpp {
  getLlama(options: {
    gpu: false;
    build: 'never';
    skipDownload: true;
    progressLogs: false;
    logLevel: 'error';
    maxThreads: number;
  }): Promise<Llama>;
  LlamaChatSession: new (options: { contextSequence: unknown }) => ChatSession;
}

/**
 * Context window of one call, at most. A refinement holds the function twice (question and answer): 8192
 * tokens fit a function of ~12 KB of C. node-llama-cpp shrinks it to what free memory allows, and a model
 * trained on less uses its own.
 */
const MAX_CONTEXT_TOKENS = 8192;

/** The package, or why it cannot be used. */
async function importNodeLlamaCpp(): Promise<NodeLlamaCpp> {
  try {
    return (await import(PACKAGE)) as NodeLlamaCpp;
  } catch (err) {
    const missing = (err as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND';
    throw new LlmError(
      'unavailable',
      missing
        ? `BINLENS_LLM_MODEL needs the optional dependency ${PACKAGE}, which is not installed ` +
            `(installed with optional dependencies omitted?): run npm install ${PACKAGE}, or unset BINLENS_LLM_MODEL`
        : `${PACKAGE} could not be loaded: ${(err as Error).message}`,
      true,
      { cause: err },
    );
  }
}

/** Fails clearly on a missing file or one that is not GGUF before llama.cpp reads it. */
async function checkModelFile(path: string): Promise<void> {
  let magic: string;
  try {
    const file = await open(path, 'r');
    try {
      const { buffer, bytesRead } = await file.read(Buffer.alloc(4), 0, 4, 0);
      magic = buffer.toString('latin1', 0, bytesRead);
    } finally {
      await file.close();
    }
  } catch (err) {
    throw new LlmError('model-load', `BINLENS_LLM_MODEL: cannot read ${path}: ${(err as Error).message}`, true, {
      cause: err,
    });
  }
  if (magic !== 'GGUF') throw new LlmError('model-load', `BINLENS_LLM_MODEL: ${path} is not a GGUF file`, true);
}

/**
 * Loads llama.cpp's prebuilt CPU binary (the package's platform package) and the model, once. Never a
 * download or a build: `build: 'never'` and `skipDownload` make a missing binary an error, where the
 * package's defaults would fetch llama.cpp's sources and compile them.
 */
async function loadModel(
  modelPath: string,
  threads: number,
): Promise<{ llama: Llama; model: Model; Session: NodeLlamaCpp['LlamaChatSession'] }> {
  const lib = await importNodeLlamaCpp();
  await checkModelFile(modelPath);
  let llama: Llama;
  try {
    llama = await lib.getLlama({
      gpu: false,
      build: 'never',
      skipDownload: true,
      progressLogs: false,
      logLevel: 'error',
      maxThreads: threads,
    });
  } catch (err) {
    throw new LlmError(
      'unavailable',
      `${PACKAGE} has no usable prebuilt llama.cpp binary for this machine ` +
        `(Binlens never builds one at run time): ${(err as Error).message}`,
      true,
      { cause: err },
    );
  }
  try {
    return { llama, model: await llama.loadModel({ modelPath, gpuLayers: 0 }), Session: lib.LlamaChatSession };
  } catch (err) {
    await llama.dispose();
    const why = `BINLENS_LLM_MODEL: llama.cpp cannot load ${modelPath}: ${(err as Error).message}`;
    throw new LlmError('model-load', why, true, { cause: err });
  }
}

/** The conversation before the last message, as node-llama-cpp's chat history. */
function history(messages: readonly ChatMessage[]): HistoryItem[] {
  return messages.map((m) =>
    m.role === 'assistant' ? { type: 'model', response: [m.content] } : { type: m.role, text: m.content },
  );
}

/** Resolves when `signal` aborts; never rejects, so a race with it needs no handler when it loses. */
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });

/**
 * A GGUF model run on the CPU through node-llama-cpp, in this process's native threads (the event loop only
 * awaits). Loaded on the first call and kept. Calls run one at a time, each in a fresh context freed after:
 * on a CPU a second concurrent generation only halves the speed of both and doubles the memory.
 */
export function ggufProvider(settings: GgufModelSettings): LlmProvider {
  let loading: ReturnType<typeof loadModel> | undefined;
  let turn: Promise<unknown> = Promise.resolve();
  const what = `GGUF model ${settings.modelPath}`;

  async function generate(messages: readonly ChatMessage[], maxTokens: number, signal: AbortSignal): Promise<string> {
    signal.throwIfAborted();
    loading ??= loadModel(settings.modelPath, settings.threads);
    const { model, Session } = await loading.catch((err: unknown) => {
      loading = undefined; // a later call tries again (the file may have been put in place since)
      throw err;
    });
    signal.throwIfAborted();
    const context = await model.createContext({ contextSize: { max: MAX_CONTEXT_TOKENS } });
    try {
      const session = new Session({ contextSequence: context.getSequence() });
      session.setChatHistory(history(messages.slice(0, -1)));
      return await session.prompt(messages.at(-1)!.content, { maxTokens, temperature: 0, signal });
    } finally {
      await context.dispose();
    }
  }

  async function complete(messages: readonly ChatMessage[], options: CompletionOptions): Promise<string> {
    if (messages.at(-1)?.role !== 'user') throw new TypeError('the last message must be the user’s');
    const deadline = callDeadline(options, settings.timeoutMs);
    const run = turn.then(() => generate(messages, options.maxTokens, deadline.signal));
    turn = run.catch(() => undefined);
    try {
      const text = await Promise.race([run, aborted(deadline.signal)]);
      if (typeof text !== 'string') throw deadline.ended(what);
      return text;
    } catch (err) {
      if (err instanceof LlmError) throw err;
      if (deadline.signal.aborted) throw deadline.ended(what, err);
      throw new LlmError('generation', `${what} failed to answer: ${(err as Error).message}`, false, { cause: err });
    }
  }

  return {
    description: what,
    complete,
    async close() {
      const loaded = await loading?.catch(() => undefined);
      loading = undefined;
      await loaded?.llama.dispose();
    },
  };
}
