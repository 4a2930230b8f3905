/**
 * CORS for the public, read-only proxy API (docs/decisions/024). Any origin may read GET and HEAD
 * answers, without credentials: the content is public, and a key (X-API-Key) is a header, not a
 * credential in CORS's sense. The headers are the same whatever the origin, so an answer never
 * varies on Origin and one cached copy, here or at the edge, serves every caller.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { baseHeaders } from './base-headers.js';
import { problem, sendProblem } from './problem.js';

/** Response headers a partner's script may read, beyond the CORS-safelisted ones (Cache-Control, Content-Type, …). */
export const EXPOSED_HEADERS = [
  'ETag',
  'Age',
  'X-Cache',
  'Cache-Tag',
  'Server-Timing',
  'X-Request-Id',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
] as const;

/** Request headers a cross-origin script may send (each makes the browser ask first, with a preflight). */
export const ALLOWED_REQUEST_HEADERS = ['X-API-Key', 'If-None-Match', 'X-Request-Id'] as const;

/** How long a browser may keep a preflight's answer: a day (Chromium keeps it two hours at most). */
export const PREFLIGHT_MAX_AGE_S = 86_400;

/** What every API answer carries, errors included, so that a partner's script can read a 404 or a 429 too. */
export const CORS_HEADERS = Object.freeze({
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
  // Server-Timing and the timing of each request, for the partner's own monitoring.
  'timing-allow-origin': '*',
});

const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * Answers a CORS preflight (OPTIONS with Access-Control-Request-Method): 204 for GET and HEAD,
 * 405 saying why for any other method. False, having sent nothing, for any other request.
 */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): boolean {
  const method = req.headers['access-control-request-method'];
  if (req.method !== 'OPTIONS' || method === undefined) return false;
  if (!READ_METHODS.has(method)) {
    const named = method.slice(0, 32);
    sendProblem(res, problem('method_not_allowed', `the API is read-only: ${named} is never allowed, from any origin; use GET or HEAD`), [
      'allow',
      'GET, HEAD',
    ]);
    return true;
  }
  res
    .writeHead(204, [
      ...baseHeaders(res),
      'access-control-allow-methods',
      'GET, HEAD',
      'access-control-allow-headers',
      ALLOWED_REQUEST_HEADERS.join(', '),
      'access-control-max-age',
      String(PREFLIGHT_MAX_AGE_S),
    ])
    .end();
  return true;
}
