/**
 * A loopback proxy in front of the service that hands Chromium its documents the way a test asks
 * (a piece at a time, or the end held back): each answer is fetched whole and uncompressed, its
 * headers passed on but those of the hop, the length and the validator (the body may be changed),
 * anything but HTML sent as it came, and an HTML document given to `deliver` to write out.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const DROPPED = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive', 'etag']);

export type Deliver = (res: ServerResponse, html: string, path: string) => Promise<void>;

export function documentProxy(origin: string, deliver: Deliver): Promise<Server> {
  const server = createServer((req, res) => {
    void (async () => {
      const answer = await fetch(origin + req.url, {
        headers: { 'accept-encoding': 'identity', cookie: req.headers.cookie ?? '', 'user-agent': req.headers['user-agent'] ?? '' },
        redirect: 'manual',
      });
      res.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([k]) => !DROPPED.has(k))));
      const body = Buffer.from(await answer.arrayBuffer());
      if (!answer.headers.get('content-type')?.startsWith('text/html')) return void res.end(body);
      await deliver(res, body.toString('utf8'), req.url ?? '/');
    })().catch((error: unknown) => res.destroy(error as Error));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/** The proxy's own address. */
export const proxyUrl = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
