/** Choosing a stored representation: content encoding and ETag validation (RFC 9110). */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import Negotiator from 'negotiator';

export type Encoding = 'br' | 'gzip' | 'identity';
const ENCODINGS: Encoding[] = ['br', 'gzip', 'identity'];
const IDENTITY: readonly Encoding[] = ['identity'];
const encodingMemo = new Map<string, readonly Encoding[]>();

/** The encodings the client accepts, best first; the few distinct Accept-Encoding values are memoised. */
export function acceptedEncodings(acceptEncoding: string | undefined): readonly Encoding[] {
  const header = acceptEncoding ?? '';
  let found = encodingMemo.get(header);
  if (!found) {
    // Browsers list gzip before br with equal weight; on a tie the smaller one wins.
    // negotiator 1.x takes the tie-break order; its published types predate the option.
    const negotiator = new Negotiator({ headers: { 'accept-encoding': header } }) as unknown as {
      encodings(available: Encoding[], options: { preferred: Encoding[] }): Encoding[];
    };
    found = negotiator.encodings(ENCODINGS, { preferred: ENCODINGS });
    if (found.length === 0) found = IDENTITY;
    if (encodingMemo.size < 100) encodingMemo.set(header, found);
  }
  return found;
}

/** Weak comparison (RFC 9110 section 13.1.2): If-None-Match matches on the opaque tag alone. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
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

/**
 * A stored body and its compressed copies, each made the first time a client asks for that
 * encoding, then kept: the work is done once per stored body, and not at all for encodings
 * nobody asks for. Brotli takes about three times as long as gzip to make, so the first
 * compressed answer of a body (usually the one to the miss that fetched it, which is waiting)
 * is gzip when the client takes gzip; brotli is made for the next one. (Making it on libuv's
 * thread pool instead was measured: handing work to a sleeping thread cost the event loop about
 * as much as compressing a few KB.)
 */
export class Representation {
  /** Weak: one tag names all encodings of the body. */
  readonly etag: string;
  #gzip: Buffer | undefined;
  #br: Buffer | undefined;

  constructor(readonly body: Buffer) {
    this.etag = `W/"${createHash('sha1').update(body).digest('base64url')}"`;
  }

  /** The bytes to send for the client's Accept-Encoding, and the Content-Encoding to name. */
  pick(acceptEncoding: string | undefined): { body: Buffer; encoding?: 'br' | 'gzip' } {
    const [first, second] = this.body.length < COMPRESS_MIN_BYTES ? IDENTITY : acceptedEncodings(acceptEncoding);
    if (first === 'br') {
      if (!this.#br && second === 'gzip' && !this.#gzip) return this.#gzipped();
      this.#br ??= brotliCompressSync(this.body, brotliOptions(this.body.length));
      return { body: this.#br, encoding: 'br' };
    }
    return first === 'gzip' ? this.#gzipped() : { body: this.body };
  }

  #gzipped(): { body: Buffer; encoding: 'gzip' } {
    this.#gzip ??= gzipSync(this.body, gzipOptions(this.body.length));
    return { body: this.#gzip, encoding: 'gzip' };
  }

  /** The most it will hold: compressed copies are smaller than the body. */
  get maxBytes(): number {
    return this.body.length * 3;
  }
}
