/**
 * A rendered page honours a slow client: over a real socket that stops reading, the render waits
 * for the response to drain instead of buffering the whole page in the process, sends all of it
 * once the client reads again, and ends cleanly when the client leaves. The client connects over
 * a Unix socket handed to the service's HTTP server: its buffers are fixed (a few hundred KB),
 * where loopback TCP's grow to megabytes and would take the whole page.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import { renderChannel, type RenderEvent } from '../server/observability/diagnostics.js';
import { startService } from './support/start-service.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

/** About 590 KB of text that does not compress away: it fills the socket's buffers. */
const longText = () => Array.from({ length: 196_000 }, () => String.fromCharCode(0x4e00 + Math.floor(Math.random() * 0x5000))).join('');
const article = { ...demoContent.contentItems[0]!, content: `<p>${longText()}</p>` };
const PATH = `/hzhf/kpzsDetail?id=${article.id}`;

const SOCKET = join(mkdtempSync(join(tmpdir(), 'page-backpressure-')), 'service.sock');

let upstream: TestUpstream;
let unix: Server;
let svc: Awaited<ReturnType<typeof startService>>;
/** The last page response the service made, and what its render wrote. */
let last: { res: ServerResponse; event?: RenderEvent } | undefined;
const onStart = (message: unknown) => {
  if (last) last.event = message as RenderEvent;
};
beforeAll(async () => {
  upstream = await startTestUpstream({ ...demoContent, contentItems: [article, ...demoContent.contentItems.slice(1)] });
  // No page cache: every request renders.
  svc = await startService({ UPSTREAM_URL: upstream.url, UPSTREAM_MAX_BYTES: String(8 << 20), PAGE_CACHE_MAX_BYTES: '0' });
  svc.service.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.url === PATH) last = { res };
  });
  renderChannel.start.subscribe(onStart);
  unix = createServer((socket) => svc.service.server.emit('connection', socket));
  await new Promise<void>((resolve) => unix.listen(SOCKET, resolve));
});
afterAll(async () => {
  renderChannel.start.unsubscribe(onStart);
  unix.close();
  await svc.close();
  await upstream.stop();
});

/** Asks for the page over a socket that reads nothing until told to. */
function slowClient(encoding: string): { socket: Socket; received: Promise<Buffer> } {
  const socket = connect(SOCKET);
  socket.pause();
  socket.write(`GET ${PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: ${encoding}\r\nConnection: close\r\n\r\n`);
  const received = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
  });
  return { socket, received };
}

/** The body of a raw HTTP/1.1 answer sent with `Connection: close` (chunked), decoded. */
function bodyOf(raw: Buffer): Buffer {
  let at = raw.indexOf('\r\n\r\n') + 4;
  const chunks: Buffer[] = [];
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    const size = parseInt(raw.subarray(at, lineEnd).toString(), 16);
    if (!size) break;
    chunks.push(raw.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(chunks);
}

describe('a page for a client that reads slowly', () => {
  it.each(['identity', 'gzip'])('waits for the client, then sends the whole page (%s)', async (encoding) => {
    const whole = await (await fetch(`${svc.url}${PATH}`)).text();
    expect(whole.length).toBeGreaterThan(190_000);
    last = undefined;
    const { socket, received } = slowClient(encoding);
    // The socket's buffers are full: the response cannot take more now.
    await expect.poll(() => last?.res.writableNeedDrain, { timeout: 5_000, message: 'the response to need draining' }).toBe(true);
    const { res, event } = last!;
    // The render stopped with the page unfinished, and the process holds little of it.
    expect(event!.bytes).toBeLessThan(Buffer.byteLength(whole));
    expect(res.writableLength).toBeLessThan(Buffer.byteLength(whole));
    socket.resume();
    const body = bodyOf(await received);
    const html = (encoding === 'gzip' ? gunzipSync(body) : body).toString();
    expect(html.length).toBe(whole.length);
    expect(html.endsWith('</html>') || html.includes('</script>')).toBe(true);
    expect(event!.bytes).toBe(Buffer.byteLength(whole));
  });

  it('ends the render cleanly when the client leaves while it waits', async () => {
    last = undefined;
    const { socket, received } = slowClient('identity');
    received.catch(() => undefined);
    await expect.poll(() => last?.res.writableNeedDrain, { timeout: 5_000, message: 'the response to need draining' }).toBe(true);
    const { res } = last!;
    socket.destroy();
    await expect.poll(() => res.closed, { timeout: 5_000, message: 'the response to close' }).toBe(true);
    await expect
      .poll(() => svc.logs, { timeout: 5_000, message: 'the aborted request line' })
      .toContainEqual(expect.objectContaining({ msg: 'request aborted', url: PATH }));
    expect(svc.logs.filter((l) => Number(l.level) >= 50)).toEqual([]);
    // The service answers the next visitor as usual.
    expect((await fetch(`${svc.url}${PATH}`)).status).toBe(200);
  });
});
