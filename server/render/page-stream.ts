/**
 * A rendered page's body on its way out: React's stream piped into the response (through the
 * encoder when the client takes one), kept for the page cache as it goes, paced by the client and
 * abandoned when it leaves or the render takes too long.
 */
import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import type { BrotliCompress, Gzip, ZstdCompress } from 'node:zlib';
import type { RenderedPage } from '../../client/entry-server.js';
import type { RenderEvent } from '../observability/diagnostics.js';

/** A render that has not finished by then, not counting its waits for the client, is abandoned. */
const RENDER_TIMEOUT_MS = 10_000;

export interface PageStream {
  res: ServerResponse;
  signal: AbortSignal;
  /** The compressor the body goes through, when the client takes an encoding. */
  encoder: ZstdCompress | BrotliCompress | Gzip | undefined;
  /** What observers (tracing) see of this render, when any listens. */
  observed: RenderEvent | undefined;
  /** Whether the page is kept: its bytes are then collected for the cache. */
  keep: boolean;
  /** Called once the shell is ready, before any byte of the body: writes the status line and headers. */
  writeHead(): void;
  /** The whole answer (head and body, uncompressed), when it was kept and the client stayed. */
  done(html: Buffer): void;
  fail(error: unknown, what: string): void;
  onError(error: unknown): void;
}

/**
 * The sink React writes into. A write the response (or the encoder) cannot take now waits for its
 * 'drain', so React stops until then: a client that reads slowly slows its own render. One that
 * leaves ends the wait.
 */
function bodySink(s: PageStream, chunks: Buffer[], finished: () => void): { sink: Writable; waiting: () => boolean } {
  const out = s.encoder ?? s.res;
  let waiting: (() => void) | undefined;
  const resume = () => {
    const next = waiting;
    waiting = undefined;
    next?.();
  };
  out.on('drain', resume);
  s.signal.addEventListener('abort', resume, { once: true });
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (s.signal.aborted) return done();
      if (s.keep) chunks.push(chunk);
      if (s.observed) s.observed.bytes += chunk.length;
      if (out.write(chunk)) done();
      else waiting = done;
    },
    final(done) {
      finished();
      done();
      if (s.signal.aborted) return;
      out.end();
      if (s.keep) s.done(Buffer.concat(chunks));
    },
  });
  // React calls flush() when it has written a piece worth sending now.
  Object.assign(sink, { flush: () => s.encoder?.flush() });
  return { sink, waiting: () => waiting !== undefined };
}

/** Streams `page` after `head`: headers when React's shell is ready, then the body as it comes. */
export function streamPage(s: PageStream, page: RenderedPage, head: string): void {
  const chunks: Buffer[] = [Buffer.from(head)];
  let timer: NodeJS.Timeout | undefined;
  const { sink, waiting } = bodySink(s, chunks, () => clearTimeout(timer));
  const stream = page.stream({
    onShellReady() {
      s.writeHead();
      if (s.encoder) s.encoder.pipe(s.res);
      (s.encoder ?? s.res).write(head);
      if (s.observed) s.observed.bytes += Buffer.byteLength(head);
      stream.pipe(sink);
    },
    onShellError(error) {
      clearTimeout(timer);
      s.fail(error, 'page render failed');
    },
    onError(error) {
      if (!s.signal.aborted) s.onError(error);
    },
  });
  // Only the render's own time counts: while it waits for a slow client, the connection guard's
  // CLIENT_TIMEOUT_MS decides.
  const expire = () => {
    if (waiting()) timer = setTimeout(expire, RENDER_TIMEOUT_MS);
    else stream.abort(new Error('render timed out'));
  };
  timer = setTimeout(expire, RENDER_TIMEOUT_MS);
  s.res.once('close', () => {
    clearTimeout(timer);
    if (s.res.writableFinished) return;
    // The visitor left before the page was done: stop rendering, and free the encoder.
    stream.abort();
    s.encoder?.destroy();
  });
}
