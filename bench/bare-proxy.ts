// The least a proxy can do, for bench/cold-miss.ts: a bare node:http server that forwards each
// GET to the upstream over an undici keep-alive pool and writes back the status, content type
// and body. No cache, validation, logging or headers. What it adds over calling the upstream
// directly is what one more hop on loopback costs on this machine. Args: <upstream url> [port].
// Prints "ready <port>" when listening.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';

const [upstream, port = '0'] = process.argv.slice(2);
if (!upstream) throw new Error('usage: bare-proxy.ts <upstream url> [port]');
const pool = new Pool(upstream, { connections: 16 });

async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const answer = await pool.request({ method: 'GET', path: req.url ?? '/' });
    const body = Buffer.from(await answer.body.arrayBuffer());
    res.writeHead(answer.statusCode, {
      'content-type': String(answer.headers['content-type'] ?? 'application/json'),
      'content-length': body.length,
    });
    res.end(body);
  } catch (error) {
    res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(String(error));
  }
}

const server = createServer((req, res) => void forward(req, res));
server.keepAliveTimeout = 65_000;
server.listen(Number(port), '127.0.0.1', () => console.log(`ready ${(server.address() as AddressInfo).port}`));
