/**
 * A media origin on loopback (node:http) that serves the files it is given, answers conditional
 * requests with 304, and counts every request it gets, by path: so that a test can prove what
 * was fetched, and what never was.
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface OriginFile {
  body: Buffer;
  contentType?: string;
  /** Sent without Content-Length (chunked), so that only the bytes read tell the size. */
  chunked?: boolean;
}

export interface MediaOrigin {
  url: string;
  files: Map<string, OriginFile>;
  /** Requests received, by path. */
  calls: Map<string, number>;
  callsTo(path: string): number;
  totalCalls(): number;
  /** The most requests it was answering at once. */
  peakInFlight(): number;
  /** Stop listening and drop every connection (the origin is down). */
  stop(): Promise<void>;
}

/** `host`: 127.0.0.1, or another loopback address to stand for a second origin. */
export async function startMediaOrigin(host = '127.0.0.1'): Promise<MediaOrigin> {
  const files = new Map<string, OriginFile>();
  const calls = new Map<string, number>();
  const sockets = new Set<Socket>();
  let inFlight = 0;
  let peak = 0;
  const server: Server = createServer((req, res) => {
    peak = Math.max(peak, ++inFlight);
    res.once('close', () => inFlight--);
    const path = (req.url ?? '/').split('?')[0]!;
    calls.set(path, (calls.get(path) ?? 0) + 1);
    const file = files.get(path);
    if (!file) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const etag = `"${createHash('sha1').update(file.body).digest('hex')}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    // The Content-Type is the origin's claim, and wrong on purpose: the endpoint reads the bytes.
    const headers: Record<string, string> = { 'content-type': file.contentType ?? 'application/octet-stream', etag };
    if (file.chunked) {
      res.writeHead(200, headers);
      for (let at = 0; at < file.body.length; at += 64 * 1024) res.write(file.body.subarray(at, at + 64 * 1024));
      res.end();
      return;
    }
    res.writeHead(200, { ...headers, 'content-length': String(file.body.length) }).end(file.body);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    files,
    calls,
    callsTo: (path) => calls.get(path) ?? 0,
    totalCalls: () => [...calls.values()].reduce((a, b) => a + b, 0),
    peakInFlight: () => peak,
    async stop() {
      if (!server.listening) return;
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
