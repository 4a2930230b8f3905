// A content API stand-in for bench/cold-miss.ts: answers GET <path>?<anything> with the fixed
// JSON body stored for <path>, after a fixed delay. Args: <answers.json> <delay ms> [port].
// answers.json maps a path (no query) to a base64 body. Prints "ready <port>" when listening.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';

const [file, delay = '20', port = '0'] = process.argv.slice(2);
if (!file) throw new Error('usage: slow-upstream.ts <answers.json> [delay ms] [port]');
const answers = new Map(
  Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>).map(([path, body]) => [
    path,
    Buffer.from(body, 'base64'),
  ]),
);
const delayMs = Number(delay);

const server = createServer((req, res) => {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const body = answers.get(q === -1 ? url : url.slice(0, q));
  setTimeout(() => {
    if (!body) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":{"code":"not_found","message":"not stored"}}');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
    res.end(body);
  }, delayMs);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(port), '127.0.0.1', () => console.log(`ready ${(server.address() as AddressInfo).port}`));
