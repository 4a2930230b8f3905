/**
 * A search engine's submission endpoint on loopback (IndexNow's or Baidu's): it records every
 * request (path, query, content type, body) and answers each with the next status of its script,
 * then with `status` (200 unless changed), as the real ones answer.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  query: URLSearchParams;
  contentType: string | undefined;
  body: string;
}

export interface EngineStub {
  url: string;
  received: Received[];
  /** Statuses for the next requests, in order. */
  script: number[];
  /** The status once the script is spent. */
  status: number;
  /** The body of a 200 (Baidu's says how many it took). */
  answer: string;
  stop(): Promise<void>;
}

export async function startEngineStub(answer = '{}'): Promise<EngineStub> {
  const stub: EngineStub = { url: '', received: [], script: [], status: 200, answer, stop: () => Promise.resolve() };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stub');
      stub.received.push({
        path: url.pathname,
        query: url.searchParams,
        contentType: req.headers['content-type'],
        body: Buffer.concat(chunks).toString(),
      });
      const status = stub.script.shift() ?? stub.status;
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(status === 200 ? stub.answer : `{"error":${status},"message":"refused"}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stub.stop = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return stub;
}
