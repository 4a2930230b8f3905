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
    found = (new Negotiator({ headers: { 'accept-encoding': header } }).encoding(ENCODINGS) as Encoding) ?? 'identity';
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

/** Bytes stored once in every encoding worth sending. */
export interface Encoded {
  body: Buffer;
  gzip: Buffer | undefined;
  br: Buffer | undefined;
}

/** The body to send for an encoding, and the Content-Encoding to name (none for identity). */
export function pickEncoding(stored: Encoded, accept: string | undefined): { body: Buffer; encoding?: 'br' | 'gzip' } {
  const wanted = preferredEncoding(accept);
  if (wanted === 'br' && stored.br) return { body: stored.br, encoding: 'br' };
  if (wanted === 'gzip' && stored.gzip) return { body: stored.gzip, encoding: 'gzip' };
  return { body: stored.body };
}

const COMPRESS_MIN_BYTES = 512;

/** Compress once, when a representation is stored; a weak ETag names all its encodings. */
export function encodeAll(body: Buffer): Encoded & { etag: string } {
  const big = body.length >= COMPRESS_MIN_BYTES;
  return {
    body,
    gzip: big ? gzipSync(body, { level: 6 }) : undefined,
    br: big ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: 6 } }) : undefined,
    etag: `W/"${createHash('sha1').update(body).digest('base64url')}"`,
  };
}
