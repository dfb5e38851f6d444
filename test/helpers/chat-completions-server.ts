// An OpenAI-compatible chat-completions server on the loopback interface, standing in for a paid service in
// tests: it records each request and answers as the test says (an answer, a status, a slow or broken body).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openLlmProvider, type LlmProvider } from '../../src/llm/index.js';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The JSON body, parsed. */
  body: {
    model?: string;
    messages?: Array<{ role: string; content: string }>;
    max_tokens?: number;
    temperature?: number;
  };
}

export interface Reply {
  status?: number;
  /** Sent as it is when a string, as JSON otherwise. */
  body: string | object;
  /** Wait this long before answering. */
  delayMs?: number;
  headers?: Record<string, string>;
}

/** The body a chat-completions API answers with `text` as the assistant's message. */
export const chatAnswer = (text: string) => ({
  id: 'chatcmpl-test',
  object: 'chat.completion',
  created: 0,
  model: 'test-model',
  choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

export interface ChatServer {
  /** The API's base URL, as BINLENS_LLM_URL takes it: http://127.0.0.1:<port>/v1. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Listens on 127.0.0.1, on a port the system picks; `reply` decides each answer. */
export async function startChatServer(reply: (req: RecordedRequest) => Reply): Promise<ChatServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: text ? (JSON.parse(text) as RecordedRequest['body']) : {},
      };
      requests.push(recorded);
      const r = reply(recorded);
      const send = () => {
        if (res.destroyed) return;
        const body = typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
        res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers });
        res.end(body);
      };
      if (r.delayMs) setTimeout(send, r.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A provider that asks `server` (model `m`, no key, 5 s to answer). */
export const loopbackProvider = (server: ChatServer): LlmProvider =>
  openLlmProvider({ kind: 'chat-completions', url: server.url, apiKey: null, model: 'm', timeoutMs: 5000 })!;
