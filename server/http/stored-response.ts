/**
 * The one way a stored answer is sent, by the proxy API and the page cache alike: the headers
 * every answer carries, the answer's own, a validator; 304 when the client's copy is current,
 * else the body in the best encoding the client takes. A 304 carries the same headers as a 200
 * (Vary included, RFC 9110 section 15.4.5) but no body. What describes the answer (its own headers,
 * its ETag, each encoding's bytes and length) was made when it was stored: a request adds only its
 * base headers, the answer's age and its own pairs.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { baseHeaders } from './base-headers.js';
import { isFresh, type Representation } from './representation.js';

export interface StoredAnswer {
  status: number;
  body: Representation;
  /** The answer's own headers (content type, cache policy, Vary, tags), as flat pairs. */
  headers: readonly string[];
  /** When it was fetched or rendered (epoch ms), for the Age header. */
  storedAt: number;
}

/** Sends a stored answer; `extra` are this response's own pairs (X-Cache, Server-Timing). */
export function sendStored(req: IncomingMessage, res: ServerResponse, stored: StoredAnswer, extra: readonly string[]): void {
  const age = Math.max(0, Math.floor((Date.now() - stored.storedAt) / 1000));
  const out = baseHeaders(res);
  out.push(...stored.headers, 'etag', stored.body.etag, 'age', String(age), ...extra);
  if (isFresh(req, stored.body.validators)) {
    res.writeHead(304, out).end();
    return;
  }
  const { bytes, head } = stored.body.pick(req.headers['accept-encoding']);
  out.push(...head);
  res.writeHead(stored.status, out).end(req.method === 'HEAD' ? undefined : bytes);
}
