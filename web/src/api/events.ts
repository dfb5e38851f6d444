// Server-sent events with the key in a header: EventSource cannot send one, so the stream is read with
// fetch and split into events here (GET /v2/analyses/{id}/events).
import { currentKey } from '../auth/key';

export interface ServerEvent {
  event: string;
  data: unknown;
}

/** Calls `onEvent` for each event until the stream ends or `signal` aborts; resolves when it ends. */
export async function followEvents(
  path: string,
  onEvent: (e: ServerEvent) => void,
  signal: AbortSignal,
): Promise<void> {
  const response = await fetch(path, {
    headers: { Authorization: currentKey() ?? '', Accept: 'text/event-stream' },
    signal,
  });
  if (!response.ok || !response.body) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('event: ')) event = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (data) onEvent({ event, data: JSON.parse(data) as unknown });
    }
  }
}
