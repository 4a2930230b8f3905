// Baseline: a raw node:http server answering fixed responses that it reads from a JSON file:
// either one response `{ status?, headers, body }` for every URL, or `{ routes: { "<url>":
// { status, headers, body } } }` keyed by the request URL (path and query as sent). Bodies are
// base64. Args: <file> [port]. Prints "ready <port>" when listening (port 0 or absent: a free one).
// Node runs it with its types stripped (startHelper): it imports Node's modules only.
import { readFileSync } from 'node:fs';
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Stored {
  status?: number;
  headers: OutgoingHttpHeaders;
  body: string;
}

const [file, port = '0'] = process.argv.slice(2);
if (!file) throw new Error('usage: static-server.ts <file> [port]');
const json = JSON.parse(readFileSync(file, 'utf8')) as Stored | { routes: Record<string, Stored> };
const load = (r: Stored) => ({ status: r.status ?? 200, headers: r.headers, body: Buffer.from(r.body, 'base64') });
const routes = 'routes' in json ? new Map(Object.entries(json.routes).map(([url, r]) => [url, load(r)])) : undefined;
const single = 'routes' in json ? undefined : load(json);

const server = createServer((req, res) => {
  const answer = single ?? routes?.get(req.url ?? '');
  if (!answer) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not stored\n');
    return;
  }
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(port), '127.0.0.1', () => console.log(`ready ${(server.address() as AddressInfo).port}`));
