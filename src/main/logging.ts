// The service's log: pino's JSON lines for collectors, or one readable line per event for a person at a
// terminal (pino-pretty), as BINLENS_LOG_FORMAT says (auto: pretty on a terminal).
import { pino, type Logger as PinoLogger, type LoggerOptions } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from '../config/index.js';
import type { LlmSettings } from '../shared/llm-settings.js';

const usePretty = (config: Config) =>
  config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY === true);

/** A logger for the service's process: the API's requests, the job runner's jobs. */
export function serviceLogger(config: Config): PinoLogger {
  const options: LoggerOptions = { level: config.logLevel };
  if (!usePretty(config)) return pino(options);
  return pino(
    options,
    pretty({
      colorize: process.stdout.isTTY === true && !process.env.NO_COLOR,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname,reqId',
      // The message says it all; the fields are there in JSON lines.
      hideObject: true,
      sync: true,
    }),
  );
}

/**
 * The start-up line saying whether decompilations are refined by a language model, and which: the endpoint
 * and model name or the GGUF file, never the key.
 */
export function aiRefinementLine(llm: LlmSettings | null): string {
  if (llm === null) return 'AI refinement: off (set BINLENS_LLM_URL or BINLENS_LLM_MODEL to turn it on)';
  const model =
    llm.kind === 'chat-completions'
      ? `${llm.url}, model ${llm.model}${llm.apiKey === null ? '' : ', with a key'}`
      : `${llm.modelPath} on ${llm.threads} CPU threads`;
  return `AI refinement: on (${model}; at most ${llm.timeoutMs} ms a model call)`;
}
