// The collector stand-in for bench/tracing.ts: takes every POST, counts it and its bytes, answers
// 200; GET /count says how many. Args: [port]. Prints "ready <port>" when listening.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const [port = '0'] = process.argv.slice(2);
let posts = 0;
let bytes = 0;
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/count') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ posts, bytes }));
    return;
  }
  req.on('data', (chunk: Buffer) => (bytes += chunk.length));
  req.on('end', () => {
    posts++;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(port), '127.0.0.1', () => console.log(`ready ${(server.address() as AddressInfo).port}`));
