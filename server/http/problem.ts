/**
 * Errors are values with a code and a message (shared/problems.ts maps codes to statuses); JSON
 * errors have the stable shape { error: { code, message } }.
 */
import type { ServerResponse } from 'node:http';
import { isContentError, type ContentError } from '../../shared/content-api.js';
import { problem } from '../../shared/problems.js';
import { baseHeaders } from './base-headers.js';

// Made here by the server's modules, as the table in shared/ says.
export { problem, type ProblemCode } from '../../shared/problems.js';

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
