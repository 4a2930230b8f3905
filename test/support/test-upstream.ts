/**
 * A content API on loopback that misbehaves on command: it answers like the embedded API in
 * `ok` mode, and in the other modes fails the ways a real upstream does. It counts calls.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { payloadFor } from '../../server/embedded-api/embedded-api.js';
import { demoContent } from '../../server/embedded-api/demo-content/index.js';
import { etagMatches, weakEtag } from '../../server/http/representation.js';
import { parseApiRequest } from '../../server/proxy/api-request.js';
import type { DemoContent } from '../../server/embedded-api/demo-content-type.js';

export type UpstreamMode =
  'ok' | 'status-500' | 'malformed-json' | 'wrong-shape' | 'oversize' | 'redirect' | 'hang-headers' | 'trickle-body' | 'close-mid-body';

export interface TestUpstream {
  url: string;
  mode: UpstreamMode;
  /** Added before every answer, in ms. */
  delayMs: number;
  /** While set, every answer also waits for it: calls held until the test lets them go. */
  hold: Promise<void> | undefined;
  /** API calls received, by path and query (its uploads, fetched by the media endpoint, are not counted). */
  calls: Map<string, number>;
  /** Calls answered 304 because the caller's ETag was still current. */
  notModified: number;
  /** The content it serves (change it to publish). */
  content: DemoContent;
  callsTo(key: string): number;
  totalCalls(): number;
  /** Connections the service holds open now for API calls. */
  openSockets(): number;
  /** Stop listening and drop every connection (the upstream is down). */
  stop(): Promise<void>;
  /** Listen again on the same port. */
  restart(): Promise<void>;
  /** Listening now (not stopped). */
  readonly listening: boolean;
}

export async function startTestUpstream(content: DemoContent = demoContent): Promise<TestUpstream> {
  const sockets = new Set<Socket>();
  /** The connections that carried an API call (the media endpoint keeps its own pool). */
  const apiSockets = new WeakSet<Socket>();
  const state: TestUpstream = {
    url: '',
    mode: 'ok',
    delayMs: 0,
    hold: undefined,
    calls: new Map(),
    notModified: 0,
    content,
    callsTo: (key) => state.calls.get(key) ?? 0,
    totalCalls: () => [...state.calls.values()].reduce((a, b) => a + b, 0),
    openSockets: () => [...sockets].filter((s) => apiSockets.has(s)).length,
    stop,
    restart,
    get listening() {
      return server.listening;
    },
  };

  function answer(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    if (!url.startsWith('/api/')) {
      // Not an API call: an upload its content names. This content API keeps none.
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    apiSockets.add(req.socket);
    state.calls.set(url, (state.calls.get(url) ?? 0) + 1);
    const respond = () => {
      switch (state.mode) {
        case 'status-500':
          res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"boom"}');
          return;
        case 'malformed-json':
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"data": [1, 2,');
          return;
        case 'wrong-shape':
          res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"unexpected":true}}');
          return;
        case 'oversize': {
          const big = JSON.stringify({ data: 'x'.repeat(3 * 1024 * 1024) });
          res.writeHead(200, { 'content-type': 'application/json' }).end(big);
          return;
        }
        case 'redirect':
          res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end();
          return;
        case 'hang-headers':
          return; // never answers
        case 'trickle-body': {
          res.writeHead(200, { 'content-type': 'application/json' });
          const timer = setInterval(() => res.write(' '), 200);
          res.once('close', () => clearInterval(timer));
          return;
        }
        case 'close-mid-body':
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
          // Cut once the start of the body is on its way.
          res.write('{"data":{"name":', () => res.socket?.destroy());
          return;
        case 'ok': {
          const request = parseApiRequest(url);
          const payload = 'key' in request ? payloadFor(state.content, request) : undefined;
          if (payload === undefined) {
            res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found","message":"none"}}');
            return;
          }
          const body = JSON.stringify({ data: payload });
          const etag = weakEtag(body);
          if (etagMatches(req.headers['if-none-match'], etag)) {
            state.notModified++;
            res.writeHead(304, { etag }).end();
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json', etag }).end(body);
          return;
        }
      }
    };
    const delayed = () => {
      if (state.delayMs > 0) setTimeout(respond, state.delayMs);
      else respond();
    };
    if (state.hold) void state.hold.then(delayed);
    else delayed();
  }

  let server: Server = createServer(answer);
  let port = 0;
  async function listen(): Promise<void> {
    server = createServer(answer);
    server.on('connection', (s) => {
      sockets.add(s);
      // 'end': the service hung up its side (a hanging handler keeps ours half-open).
      s.once('end', () => sockets.delete(s));
      s.once('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    state.url = `http://127.0.0.1:${port}`;
  }
  async function stop(): Promise<void> {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  async function restart(): Promise<void> {
    await listen();
  }
  await listen();
  return state;
}
