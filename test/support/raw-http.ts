/**
 * HTTP/1.1 over a bare socket: the request target, method, headers and body are sent exactly as
 * given (supertest and node:http refuse or rewrite odd targets such as raw bytes, absolute-form
 * URLs or `*`). One request per connection (`Connection: close`); the answer is read to the end.
 */
import { connect } from 'node:net';

export interface RawResponse {
  status: number;
  /** Lower-cased names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  text: string;
}

export interface RawRequestOptions {
  method?: string;
  /** Sent in this order. A `host` entry replaces the default Host header. */
  headers?: ReadonlyArray<readonly [string, string]>;
  body?: string | Buffer;
  /** Send the body as one chunk of a chunked transfer instead of with Content-Length. */
  chunked?: boolean;
  timeoutMs?: number;
}

function decodeChunked(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (let guard = 0; guard < 100_000 && at < data.length; guard++) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd === -1) break;
    const size = Number.parseInt(data.subarray(at, lineEnd).toString('latin1').split(';')[0]!, 16);
    if (!Number.isFinite(size) || size === 0) break;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(parts);
}

export function rawRequest(baseUrl: string, target: string | Buffer, options: RawRequestOptions = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  const method = options.method ?? 'GET';
  const headers = [...(options.headers ?? [])];
  if (!headers.some(([name]) => name.toLowerCase() === 'host')) headers.unshift(['host', `${hostname}:${port}`]);
  headers.push(['connection', 'close']);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  if (body && options.chunked) headers.push(['transfer-encoding', 'chunked']);
  else if (body) headers.push(['content-length', String(body.length)]);
  const head = Buffer.concat([
    Buffer.from(`${method} `, 'latin1'),
    Buffer.isBuffer(target) ? target : Buffer.from(target, 'latin1'),
    Buffer.from(` HTTP/1.1\r\n${headers.map(([n, v]) => `${n}: ${v}\r\n`).join('')}\r\n`, 'latin1'),
  ]);
  const payload = !body
    ? head
    : options.chunked
      ? Buffer.concat([head, Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')])
      : Buffer.concat([head, body]);

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    // write, not end: a half-closed client makes node:http abort the request in flight.
    const socket = connect(Number(port), hostname, () => socket.write(payload));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer to ${method} ${String(target).slice(0, 100)} within ${options.timeoutMs ?? 10_000} ms`));
    }, options.timeoutMs ?? 10_000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const all = Buffer.concat(chunks);
      const split = all.indexOf('\r\n\r\n');
      if (split === -1) {
        reject(
          new Error(`no HTTP answer to ${method} ${String(target).slice(0, 100)}: ${JSON.stringify(all.toString('latin1').slice(0, 200))}`),
        );
        return;
      }
      const [statusLine, ...lines] = all.subarray(0, split).toString('latin1').split('\r\n');
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
      const parsed: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(':');
        const name = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        parsed[name] = name in parsed ? `${parsed[name]}, ${value}` : value;
      }
      let rest: Buffer = all.subarray(split + 4);
      if (/\bchunked\b/i.test(parsed['transfer-encoding'] ?? '')) rest = decodeChunked(rest);
      resolve({ status, headers: parsed, body: rest, text: rest.toString('utf8') });
    });
  });
}
