// The network every guest sees, never real: names resolve to documentation addresses (192.0.2.0/24,
// RFC 5737), and what a guest sends is read for the DNS questions and HTTP requests in it.

/** The fake network: names to documentation addresses, one per name, handed out in order. */
export class FakeNetwork {
  private readonly names = new Map<string, string>();

  resolve(name: string): string {
    let a = this.names.get(name);
    if (!a) this.names.set(name, (a = `192.0.2.${10 + (this.names.size % 240)}`));
    return a;
  }

  /** The name an address was handed out for, if any. */
  nameOf(address: string): string | null {
    for (const [n, a] of this.names) if (a === address) return n;
    return null;
  }
}

/** The question name of a DNS query packet (RFC 1035 §4.1), or null. */
function dnsQuestion(packet: Uint8Array): { id: number; name: string; end: number } | null {
  if (packet.length < 17) return null;
  const labels: string[] = [];
  let at = 12;
  for (let guard = 0; guard < 64; guard++) {
    const n = packet[at];
    if (n === undefined || n > 63) return null;
    at++;
    if (n === 0) break;
    labels.push(new TextDecoder().decode(packet.subarray(at, at + n)));
    at += n;
  }
  if (!labels.length || at + 4 > packet.length) return null;
  return { id: (packet[0]! << 8) | packet[1]!, name: labels.join('.'), end: at + 4 };
}

/** The answer to a DNS query: the question echoed with one A record of `address` (none for other types). */
function dnsAnswer(query: Uint8Array, q: { end: number }, address: string): Uint8Array {
  const head = query.slice(0, q.end);
  const isA = head[q.end - 4] === 0 && head[q.end - 3] === 1;
  head[2] = 0x81;
  head[3] = 0x80;
  head.set([0, 1, 0, isA ? 1 : 0, 0, 0, 0, 0], 4);
  const ip = address.split('.').map(Number);
  const answer = isA ? [0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0x0e, 0x10, 0, 4, ...ip] : [];
  const out = new Uint8Array(head.length + answer.length);
  out.set(head);
  out.set(answer, head.length);
  return out;
}

/** The request line and Host of an HTTP request, or null when `data` does not start one. */
function httpRequest(data: Uint8Array): { method: string; path: string; host: string | null } | null {
  const text = new TextDecoder().decode(data.subarray(0, 4096));
  const m = /^([A-Z]{3,7}) (\S+) HTTP\/1\.[01]\r?\n/.exec(text);
  if (!m) return null;
  const host = /\r?\nHost:\s*([^\r\n]+)/i.exec(text);
  return { method: m[1]!, path: m[2]!, host: host ? host[1]!.trim() : null };
}

/** What `data` sent to `peer` is, as an event: a DNS question (with the answer the guest will read), an HTTP request, or bytes. */
export function readSent(
  net: FakeNetwork,
  peer: { address: string; port: number },
  data: Uint8Array,
): { kind: 'dns-query' | 'http-request' | 'send'; detail: Record<string, string | number>; reply?: Uint8Array } {
  const q = peer.port === 53 ? dnsQuestion(data) : null;
  if (q) {
    const answer = net.resolve(q.name);
    return { kind: 'dns-query', detail: { host: q.name, answer }, reply: dnsAnswer(data, q, answer) };
  }
  const http = httpRequest(data);
  if (http)
    return {
      kind: 'http-request',
      detail: {
        method: http.method,
        path: http.path,
        host: http.host ?? net.nameOf(peer.address) ?? peer.address,
        port: peer.port,
      },
    };
  return { kind: 'send', detail: { address: peer.address, port: peer.port, bytes: data.length } };
}
