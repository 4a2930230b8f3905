/**
 * Representations of a body: which content encoding a client gets, compressed copies made once
 * and kept, ETag validation (RFC 9110), and the encoder for a body that is streamed as it is
 * made (docs/decisions/014).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  brotliCompressSync,
  constants as zlib,
  createBrotliCompress,
  createGzip,
  createZstdCompress,
  gzipSync,
  zstdCompressSync,
  type BrotliCompress,
  type Gzip,
  type ZstdCompress,
} from 'node:zlib';
import fresh from 'fresh';
import Negotiator from 'negotiator';
import { clientMemo } from './client-memo.js';

type Encoding = 'br' | 'zstd' | 'gzip' | 'identity';
/** On a tie in the client's weights, the first wins: brotli is the smallest, zstd the quickest to make. */
const ENCODINGS: Encoding[] = ['br', 'zstd', 'gzip', 'identity'];
const IDENTITY: readonly Encoding[] = ['identity'];
const encodingMemo = clientMemo<readonly Encoding[]>();

/** The encodings the client accepts, best first; each distinct Accept-Encoding is worked out once. */
function acceptedEncodings(acceptEncoding: string | undefined): readonly Encoding[] {
  // No header: the body as it is (what negotiator says too).
  if (acceptEncoding === undefined) return IDENTITY;
  const header = acceptEncoding;
  let found = encodingMemo.get(header);
  if (!found) {
    // negotiator 1.x takes the tie-break order; its published types predate the option.
    const negotiator = new Negotiator({ headers: { 'accept-encoding': header } }) as unknown as {
      encodings(available: Encoding[], options: { preferred: Encoding[] }): Encoding[];
    };
    found = negotiator.encodings(ENCODINGS, { preferred: ENCODINGS });
    if (found.length === 0) found = IDENTITY;
    encodingMemo.set(header, found);
  }
  return found;
}

/** What a client's conditional request is compared with; made once per answer where it is kept. */
export interface ValidatorHeaders extends fresh.Headers {
  readonly etag: string;
  readonly 'last-modified'?: string;
}

/**
 * Whether the client's copy is current, so that a 304 answers (RFC 9110 section 13.1), decided by
 * jshttp's `fresh` as Express and send decide it: If-None-Match by weak comparison, else
 * If-Modified-Since against Last-Modified. It is not shown the request's Cache-Control: `fresh`
 * answers `no-cache` with the whole body, and the Fetch standard adds `Cache-Control: no-cache` to
 * every conditional request a script makes (a partner's fetch() with If-None-Match would never get
 * its 304), while RFC 9111 asks only caches, not the origin, to validate on `no-cache`.
 */
export function isFresh(req: IncomingMessage, validators: ValidatorHeaders): boolean {
  const { 'if-none-match': ifNoneMatch, 'if-modified-since': ifModifiedSince } = req.headers;
  if (ifNoneMatch === undefined && ifModifiedSince === undefined) return false;
  return fresh({ 'if-none-match': ifNoneMatch, 'if-modified-since': ifModifiedSince }, validators);
}

/** A weak ETag naming the given parts (a body, or what a page was made from). */
export function weakEtag(...parts: (string | Buffer)[]): string {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part).update('\u0000');
  return `W/"${hash.digest('base64url')}"`;
}

const COMPRESS_MIN_BYTES = 512;
/**
 * Compression windows no larger than the body: the encoders' state is allocated per call, and a
 * default brotli window (4 MiB) costs more to set up and tear down than compressing a few KB.
 */
const windowBits = (size: number, min: number, max: number) => Math.min(max, Math.max(min, Math.ceil(Math.log2(size))));
const brotliOptions = (size: number) => ({
  params: {
    [zlib.BROTLI_PARAM_QUALITY]: 5,
    [zlib.BROTLI_PARAM_SIZE_HINT]: size,
    [zlib.BROTLI_PARAM_LGWIN]: windowBits(size, zlib.BROTLI_MIN_WINDOW_BITS, zlib.BROTLI_DEFAULT_WINDOW),
  },
});
const gzipOptions = (size: number) => ({ level: 6, windowBits: windowBits(size, 9, 15), memLevel: 8 });
const zstdOptions = { params: { [zlib.ZSTD_c_compressionLevel]: 3 } };

/** A body as it is sent: its bytes and the headers that describe them (Content-Encoding, Content-Length), made once. */
export interface Sendable {
  readonly bytes: Buffer;
  readonly head: readonly string[];
}

const sendable = (bytes: Buffer, encoding?: 'br' | 'zstd' | 'gzip'): Sendable => ({
  bytes,
  head: Object.freeze([...(encoding ? ['content-encoding', encoding] : []), 'content-length', String(bytes.length)]),
});

/**
 * A stored body and its compressed copies, each made the first time a client asks for that
 * encoding, then kept with the headers that describe it: the work is done once per stored body,
 * and not at all for encodings nobody asks for. Brotli is the smallest but takes two to three
 * times as long to make, so the first compressed answer of a body (usually to the miss that
 * fetched it, which is waiting) is zstd or gzip when the client takes one of them; brotli is made
 * for the next one.
 */
export class Representation {
  /** Weak: one tag names all encodings of the body. */
  readonly etag: string;
  /** The ETag as a conditional request is compared with it (isFresh). */
  readonly validators: ValidatorHeaders;
  readonly #identity: Sendable;
  #copies: Partial<Record<'br' | 'zstd' | 'gzip', Sendable>> = {};

  constructor(
    readonly body: Buffer,
    etag?: string,
  ) {
    this.etag = etag ?? weakEtag(body);
    this.validators = { etag: this.etag };
    this.#identity = sendable(body);
  }

  /** The bytes to send for the client's Accept-Encoding, with the headers that name them. */
  pick(acceptEncoding: string | undefined): Sendable {
    if (this.body.length < COMPRESS_MIN_BYTES) return this.#identity;
    const accepted = acceptedEncodings(acceptEncoding);
    let wanted = accepted[0]!;
    if (wanted === 'identity') return this.#identity;
    if (wanted === 'br' && Object.keys(this.#copies).length === 0) {
      // The body is new: answer with a quick encoding now, make brotli for the next request.
      wanted = accepted.find((e) => e === 'zstd' || e === 'gzip') ?? wanted;
    }
    return (this.#copies[wanted] ??= sendable(this.#compress(wanted), wanted));
  }

  #compress(encoding: 'br' | 'zstd' | 'gzip'): Buffer {
    const size = this.body.length;
    if (encoding === 'br') return brotliCompressSync(this.body, brotliOptions(size));
    return encoding === 'zstd' ? zstdCompressSync(this.body, zstdOptions) : gzipSync(this.body, gzipOptions(size));
  }

  /** The most it will hold: compressed copies are smaller than the body. */
  get maxBytes(): number {
    return this.body.length * 4;
  }
}

/**
 * An encoder for a body streamed as it is made (a page on a miss): zstd where the client takes
 * it (quick to make while the visitor waits), else brotli at a low quality, else gzip. `flush()`
 * sends what has been written so far, so that the browser can start on the head.
 */
export function streamEncoder(acceptEncoding: string | undefined): {
  encoding?: 'br' | 'zstd' | 'gzip';
  encoder?: ZstdCompress | BrotliCompress | Gzip;
} {
  const accepted = acceptedEncodings(acceptEncoding);
  if (accepted.includes('zstd')) return { encoding: 'zstd', encoder: createZstdCompress(zstdOptions) };
  if (accepted[0] === 'br') return { encoding: 'br', encoder: createBrotliCompress({ params: { [zlib.BROTLI_PARAM_QUALITY]: 4 } }) };
  if (accepted[0] === 'gzip') return { encoding: 'gzip', encoder: createGzip({ level: 6 }) };
  return {};
}
