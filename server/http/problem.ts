/**
 * Errors are values with a code and a message; this table is the one place that maps them to
 * HTTP statuses (docs/product/errors.md). JSON errors have the stable shape { error: { code, message } }.
 */
import type { ServerResponse } from 'node:http';
import { ContentError, isContentError } from '../../shared/content-api.js';
import { baseHeaders } from './base-headers.js';

const PROBLEM_STATUS = {
  bad_request: 400,
  not_found: 404,
  method_not_allowed: 405,
  unauthorized: 401,
  forbidden: 403,
  payload_too_large: 413,
  range_not_satisfiable: 416,
  too_many_requests: 429,
  busy: 503,
  upstream_invalid: 502,
  upstream_status: 502,
  upstream_unavailable: 503,
  upstream_timeout: 504,
  internal: 500,
} as const;

export type ProblemCode = keyof typeof PROBLEM_STATUS;

export function problem(code: ProblemCode, message: string, retryAfterS?: number): ContentError {
  return new ContentError(PROBLEM_STATUS[code], code, message, retryAfterS);
}

/** Any thrown value as a ContentError; unknown errors become `internal` without their details. */
export function asProblem(error: unknown): ContentError {
  return isContentError(error) ? error : problem('internal', 'internal error');
}

/** A JSON error with the headers every answer carries (and Retry-After when it says); `extra` as flat pairs (Allow, WWW-Authenticate). */
export function sendProblem(res: ServerResponse, error: ContentError, extra: readonly string[] = []): void {
  const body = JSON.stringify({ error: { code: error.code, message: error.message } });
  res.writeHead(error.status, [
    ...baseHeaders(res),
    ...extra,
    ...(error.retryAfterS === undefined ? [] : ['retry-after', String(error.retryAfterS)]),
    'content-type',
    'application/json; charset=utf-8',
    'content-length',
    String(Buffer.byteLength(body)),
    'cache-control',
    'no-store',
  ]);
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
