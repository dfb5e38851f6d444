import type { ChatCompletionsSettings } from '../shared/llm-settings.js';
import { callDeadline } from './call-deadline.js';
import { LlmError } from './llm-error.js';
import type { ChatMessage, CompletionOptions, LlmProvider } from './provider.js';

/**
 * Largest answer body read. A refined function of 4096 tokens is ~16 KB of text, ~20 KB as JSON; 4 MiB is
 * far past any honest answer and bounds what a broken or hostile endpoint can make the worker hold.
 */
const MAX_BODY_BYTES = 4 << 20;
/** How much of an error body a message quotes. */
const QUOTE_CHARS = 300;

/** The body up to `limit` bytes; more is an error, and the rest is not read. */
async function boundedText(response: Response, limit: number, endpoint: string): Promise<string> {
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) {
      await response.body.cancel().catch(() => undefined);
      throw new LlmError('malformed-answer', `${endpoint} answered more than ${limit} bytes`, false);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const quote = (text: string) => JSON.stringify(text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text);

/** What an error body says: the OpenAI-style `error.message` when there is one, else the body quoted. */
function errorDetail(body: string): string {
  try {
    const message = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === 'string') return quote(message);
  } catch {
    // not JSON: quote the text as it is
  }
  return body.trim() ? quote(body.trim()) : 'an empty body';
}

/** The answer's text: `choices[0].message.content`, a string, as the API defines it. */
function answerText(body: string, endpoint: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new LlmError(
      'malformed-answer',
      `${endpoint} answered 2xx with a body that is not JSON: ${quote(body)}`,
      false,
    );
  }
  const content = (parsed as { choices?: Array<{ message?: { content?: unknown } }> } | null)?.choices?.[0]?.message
    ?.content;
  if (typeof content !== 'string')
    throw new LlmError(
      'malformed-answer',
      `${endpoint} answered JSON without a text in choices[0].message.content: ${quote(body)}`,
      false,
    );
  return content;
}

/**
 * A client of an OpenAI-compatible chat-completions API over Node's fetch: one POST per call, greedy
 * decoding (temperature 0) so the same function asks the same question and mostly gets the same answer.
 * Redirects are refused, so the key is sent only to the configured host.
 */
export function chatCompletionsProvider(settings: ChatCompletionsSettings): LlmProvider {
  const endpoint = `${settings.url}/chat/completions`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (settings.apiKey !== null) headers.authorization = `Bearer ${settings.apiKey}`;

  async function complete(messages: readonly ChatMessage[], options: CompletionOptions): Promise<string> {
    const deadline = callDeadline(options, settings.timeoutMs);
    const body = JSON.stringify({ model: settings.model, messages, max_tokens: options.maxTokens, temperature: 0 });
    let status: number;
    let text: string;
    try {
      const response = await fetch(endpoint, {
        method: 'POST',
        headers,
        body,
        signal: deadline.signal,
        redirect: 'error',
      });
      status = response.status;
      text = await boundedText(response, MAX_BODY_BYTES, endpoint);
    } catch (err) {
      if (err instanceof LlmError) throw err;
      if (deadline.signal.aborted) throw deadline.ended(endpoint, err);
      const cause = err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err);
      throw new LlmError('unreachable', `${endpoint} could not be reached: ${cause}`, false, { cause: err });
    }
    if (status < 200 || status > 299) {
      // Rate limits, time-outs and server faults may pass; a refused key or a bad request will not.
      const transient = status === 408 || status === 429 || status >= 500;
      throw new LlmError('http-status', `${endpoint} answered ${status}: ${errorDetail(text)}`, !transient);
    }
    return answerText(text, endpoint);
  }

  return {
    description: `chat completions at ${settings.url} (model ${settings.model})`,
    complete,
    close: async () => undefined,
  };
}
