// Baseline for bench/browser.ts: a node:http server answering stored HTML documents (the
// service's pages with every <script> and modulepreload link removed) and the build's static
// files from dist/client (/assets, /media), compressed with brotli (quality 4, as the
// service's streamed pages) when the browser accepts it, from memory.
// Args: <pages.json> [port]; pages.json maps a URL (path and query as sent) to HTML text.
// Prints "ready <port>" when listening.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

const ROOT = new URL('..', import.meta.url).pathname;
const CLIENT = join(ROOT, 'dist/client');
const [file, port = '0'] = process.argv.slice(2);
if (!file) throw new Error('usage: browser-baseline-server.ts <pages.json> [port]');
const pages = new Map(
  Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>).map(([url, html]) => [url, Buffer.from(html)]),
);

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};
const COMPRESSIBLE = new Set(['.js', '.css', '.svg', '.json', '.html']);
const br = (bytes: Buffer) => brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });

interface Entry {
  type: string;
  raw: Buffer;
  br: Buffer | undefined;
  cacheControl: string;
}

const memo = new Map<string, Entry>();

function lookup(url: string): Entry | undefined {
  const known = memo.get(url);
  if (known) return known;
  let entry: Entry;
  const html = pages.get(url);
  if (html) {
    entry = { type: 'text/html; charset=utf-8', raw: html, br: br(html), cacheControl: 'no-cache' };
  } else {
    const path = decodeURIComponent(url.split('?')[0] ?? '');
    if (!path.startsWith('/assets/') && !path.startsWith('/media/')) return undefined;
    const full = normalize(join(CLIENT, path));
    if (!full.startsWith(CLIENT)) return undefined;
    let raw: Buffer;
    try {
      raw = readFileSync(full);
    } catch {
      return undefined;
    }
    const ext = extname(full);
    entry = {
      type: TYPES[ext] ?? 'application/octet-stream',
      raw,
      br: COMPRESSIBLE.has(ext) && raw.length >= 1024 ? br(raw) : undefined,
      cacheControl: path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=86400',
    };
  }
  memo.set(url, entry);
  return entry;
}

const server = createServer((req, res) => {
  const entry = lookup(req.url ?? '/');
  if (!entry) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found\n');
    return;
  }
  const useBr = entry.br !== undefined && /\bbr\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const body = useBr && entry.br ? entry.br : entry.raw;
  res.writeHead(200, {
    'content-type': entry.type,
    'content-length': body.length,
    'cache-control': entry.cacheControl,
    vary: 'Accept-Encoding',
    ...(useBr ? { 'content-encoding': 'br' } : {}),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
});
server.keepAliveTimeout = 65_000;
server.listen(Number(port), '127.0.0.1', () => console.log(`ready ${(server.address() as AddressInfo).port}`));
