/**
 * The one error type's codes and statuses: every failure the API or a page reports is a
 * ContentError with one of these codes, and this table is the one place that maps them to HTTP
 * statuses (docs/product/errors.md). Pages answer with fewer statuses than the API: see `pageStatus`.
 */
import { ContentError } from './content-api.js';

const PROBLEM_STATUS = {
  bad_request: 400,
  not_found: 404,
  method_not_allowed: 405,
  unauthorized: 401,
  forbidden: 403,
  precondition_failed: 412,
  payload_too_large: 413,
  uri_too_long: 414,
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

/**
 * The statuses a page answers with besides 200: its address asks for what cannot be (400: a search
 * longer than a search box takes), its content does not exist (404), or the visitor asked too often (429).
 */
const PAGE_ERROR_STATUSES = new Set([400, 404, 429]);

/**
 * The status a page answers with for a status its loaders ended with: 200, 400, 404 or 429 as they
 * said, 503 (the content cannot be had now) for anything else. Used by the app's loaders and by
 * the server that sends the page.
 */
export function pageStatus(status: number): 200 | 400 | 404 | 429 | 503 {
  return status === 200 || PAGE_ERROR_STATUSES.has(status) ? (status as 200 | 400 | 404 | 429) : 503;
}
