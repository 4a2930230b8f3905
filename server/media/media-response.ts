/**
 * What a media answer says besides its bytes: the format a client gets (three at most per
 * address, so that caches keep at most three copies), the cache policy, the tags, the headers
 * that mean something for an image, and byte ranges for files.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { problem, sendProblem } from '../http/problem.js';
import { isFresh } from '../http/representation.js';
import { baseHeaders } from '../http/base-headers.js';
import { clientMemo } from '../http/client-memo.js';
import { ALL_TAG } from '../fleet/purge-message.js';
import type { OutputFormat } from './transform.js';
import type { VariantSource } from './variants.js';

/** The three kinds of client an address is answered for: AVIF, else WebP, else JPEG (PNG for transparency). */
export type AcceptClass = 'avif' | 'webp' | 'legacy';

const acceptMemo = clientMemo<AcceptClass>();

/** The class of a client's Accept: a format counts only when named with a weight above zero (`*\/*` names none). */
export function acceptClass(accept: string | undefined): AcceptClass {
  const header = accept ?? '';
  let found = acceptMemo.get(header);
  if (!found) {
    const named = new Set<string>();
    for (const part of header.toLowerCase().split(',')) {
      const [type, ...params] = part.split(';').map((s) => s.trim());
      const q = params.find((p) => p.startsWith('q='));
      if (type && (q === undefined || Number(q.slice(2)) > 0)) named.add(type);
    }
    found = named.has('image/avif') ? 'avif' : named.has('image/webp') ? 'webp' : 'legacy';
    acceptMemo.set(header, found);
  }
  return found;
}

/** The format of a variant for a class of client and an original (opaque or not). */
export function outputFormat(accept: AcceptClass, opaque: boolean): OutputFormat {
  if (accept !== 'legacy') return accept;
  return opaque ? 'jpeg' : 'png';
}

/** An address naming the original's current version never changes. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** One naming no version (or an old one) may: a short lifetime, then refreshed in the background. */
export const SHORT_LIVED = 'public, max-age=300, stale-while-revalidate=3600, stale-if-error=86400';

/**
 * The headers every media answer carries: the front door's for what is read from any origin (the
 * API's set: no document-only headers, Cross-Origin-Resource-Policy: cross-origin, CORS), and its tags.
 */
export function mediaBaseHeaders(res: ServerResponse, tag: string): string[] {
  return [...baseHeaders(res), 'cache-tag', `${ALL_TAG}, ${tag}`];
}

/** A byte range asked for (RFC 9110 section 14.2): one range, or none to send the whole. */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges, or another unit: the whole file, as the RFC allows.
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return undefined;
  return { start, end };
}

/** X-Cache: HIT in memory, DISK, MISS (made now), STALE (the origin failed; the last good copy). */
export function xCache(from: VariantSource, stale: boolean): string {
  if (stale) return 'STALE';
  return from === 'memory' ? 'HIT' : from === 'disk' ? 'DISK' : 'MISS';
}

/** A file's answer: 304 while the client's copy is current, else its bytes, or the range asked for (If-Range honoured). */
export function sendFileBytes(req: IncomingMessage, res: ServerResponse, head: string[], etag: string, bytes: Buffer): void {
  if (isFresh(req, { etag })) {
    res.writeHead(304, head).end();
    return;
  }
  // If-Range: the range only while the client's copy is this one.
  const ifRange = req.headers['if-range'];
  const range = ifRange === undefined || ifRange === etag ? byteRange(req.headers.range, bytes.length) : undefined;
  if (range === 'unsatisfiable') {
    sendProblem(res, problem('range_not_satisfiable', 'the range asked for is past the end of the file'), [
      'content-range',
      `bytes */${bytes.length}`,
    ]);
    return;
  }
  const body = range ? bytes.subarray(range.start, range.end + 1) : bytes;
  if (range) head.push('content-range', `bytes ${range.start}-${range.end}/${bytes.length}`);
  head.push('content-length', String(body.length));
  res.writeHead(range ? 206 : 200, head).end(req.method === 'HEAD' ? undefined : body);
}
