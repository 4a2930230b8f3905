/**
 * Errors that say the request was at fault: a 4xx status of their own, as http-errors gives it
 * (`status` or `statusCode`) and as send, serve-static, Express's router and body parsers raise it,
 * or one of our problems with a 4xx. Such an error is answered with its status and never counted or
 * logged as a failure of the service (docs/decisions/057). Its message is never sent: http-errors'
 * `expose` says whether it could be, and send wraps a file system's error (ENOENT) with it false.
 */
import { STATUS_CODES } from 'node:http';
import { isContentError, type ContentError } from '../../shared/content-api.js';
import { problem, type ProblemCode } from './problem.js';

/** The problem for each status such an error carries; any other 4xx is answered as a bad request. */
const PROBLEMS: Partial<Record<number, [ProblemCode, string]>> = {
  400: ['bad_request', 'the URL cannot be decoded'],
  403: ['forbidden', 'the address is not served'],
  404: ['not_found', 'no such file'],
  405: ['method_not_allowed', 'the method is not allowed here'],
  412: ['precondition_failed', 'a precondition of the request does not hold'],
  413: ['payload_too_large', 'the body is too large'],
  414: ['uri_too_long', 'the request target is too long'],
  416: ['range_not_satisfiable', 'the range asked for is past the end of the file'],
};

/** The problem to answer with when `error` says the request was at fault; undefined for anything else. */
export function clientFaultOf(error: unknown): ContentError | undefined {
  if (isContentError(error)) return error.status >= 400 && error.status < 500 ? error : undefined;
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  const carried = typeof status === 'number' ? status : statusCode;
  if (typeof carried !== 'number' || carried < 400 || carried > 499) return undefined;
  const [code, message] = PROBLEMS[carried] ?? ['bad_request', `the request cannot be answered (${STATUS_CODES[carried] ?? carried})`];
  return problem(code, message);
}

/**
 * The headers an http-errors error asks to be sent with it (send's 416 names the file's size in
 * Content-Range), as flat pairs; Express's own final handler sends them too.
 */
export function errorHeaders(error: unknown): string[] {
  const headers = (error as { headers?: unknown } | null)?.headers;
  if (typeof headers !== 'object' || headers === null) return [];
  return Object.entries(headers).flatMap(([name, value]) => (typeof value === 'string' ? [name.toLowerCase(), value] : []));
}

/** What an error said, for the log: its name and message, cut short (a message may quote the address). */
export function describeFault(error: unknown): string {
  const { name, message } = error instanceof Error ? error : { name: 'Error', message: String(error) };
  return `${name}: ${message}`.slice(0, 200);
}
