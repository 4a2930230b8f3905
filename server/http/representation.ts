/** Choosing a stored representation: content encoding and ETag validation (RFC 9110). */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import Negotiator from 'negotiator';

export type Encoding = 'br' | 'gzip' | 'identity';
const ENCODINGS: Encoding[] = ['br', 'gzip', 'identity'];
const encodingMemo = new Map<string, Encoding>();

/** The client's preferred encoding; the few distinct Accept-Encoding values are memoised. */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding {
  const header = acceptEncoding ?? '';
  let found = encodingMemo.get(header);
  if (!found) {
    // Browsers list gzip before br with equal weight; on a tie the smaller one wins.
    // negotiator 1.x takes the tie-break order; its published types predate the option.
    const negotiator = new Negotiator({ headers: { 'accept-encoding': header } }) as unknown as {
      encoding(available: Encoding[], options: { preferred: Encoding[] }): Encoding | undefined;
    };
    found = negotiator.encoding(ENCODINGS, { preferred: ENCODINGS }) ?? 'identity';
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
 * A stored body and its compressed copies. Each copy is made the first time a client asks for
 * that encoding, then kept: the work is done once per stored body, and not at all for
 * encodings nobody asks for.
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
    const wanted = this.body.length < COMPRESS_MIN_BYTES ? 'identity' : preferredEncoding(acceptEncoding);
    if (wanted === 'br') {
      this.#br ??= brotliCompressSync(this.body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } });
      return { body: this.#br, encoding: 'br' };
    }
    if (wanted === 'gzip') {
      this.#gzip ??= gzipSync(this.body, { level: 6 });
      return { body: this.#gzip, encoding: 'gzip' };
    }
    return { body: this.body };
  }

  /** The most it will hold: compressed copies are smaller than the body. */
  get maxBytes(): number {
    return this.body.length * 3;
  }
}
