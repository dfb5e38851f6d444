import { LlmError } from './llm-error.js';
import type { CompletionOptions } from './provider.js';

/**
 * The signal one model call runs under: the caller's, also ended by the call's time-out; and the LlmError
 * saying which of the two ended it.
 */
export function callDeadline(options: CompletionOptions, defaultTimeoutMs: number) {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const timer = AbortSignal.timeout(timeoutMs);
  const caller = options.signal;
  return {
    signal: caller ? AbortSignal.any([caller, timer]) : timer,
    ended(what: string, cause?: unknown): LlmError {
      return caller?.aborted
        ? new LlmError('aborted', `${what}: cancelled by the caller`, false, { cause })
        : new LlmError('timeout', `${what}: no complete answer within ${timeoutMs} ms`, false, { cause });
    },
  };
}
