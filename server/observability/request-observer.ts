/**
 * One log line and the request metrics for every request, whichever layer answers it (the
 * API handler ahead of Express, or Express). Handlers note what they know about a request
 * (route, cache status, upstream time) with `observe(res, ...)`.
 *
 * Written directly on pino rather than with pino-http: pino-http builds a child logger for
 * every request, which costs more than answering a cached hit. The request line has a fixed
 * shape, so it is composed as a string and written to the logger's own stream, in pino's
 * format (docs/decisions/007); test/observability.test.ts checks that it is pino's own line.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino } from 'pino';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';

export interface RequestFacts {
  /** A bounded label: an API path template, a page route, or a class such as `static`. */
  route?: string;
  cache?: string;
  upstreamMs?: number;
  /** The partner whose key the request carried. */
  partner?: string;
}

/** What is known of one request while it is answered; one object, one shape, per request. */
class RequestRecord {
  route = 'other';
  cache: string | undefined = undefined;
  upstreamMs: number | undefined = undefined;
  partner: string | undefined = undefined;
  constructor(
    readonly reqId: string,
    readonly method: string,
    readonly url: string,
    readonly started: number,
  ) {}
}

const RECORD = Symbol('request record');
type Observed = ServerResponse & { [RECORD]?: RequestRecord };

export function observe(res: ServerResponse, facts: RequestFacts): void {
  const record = (res as Observed)[RECORD];
  if (!record) return;
  if (facts.route !== undefined) record.route = facts.route;
  if (facts.cache !== undefined) record.cache = facts.cache;
  if (facts.upstreamMs !== undefined) record.upstreamMs = facts.upstreamMs;
  if (facts.partner !== undefined) record.partner = facts.partner;
}

/** What handlers have noted of a request so far (its route, its cache status), for its trace span. */
export function factsOf(res: ServerResponse): Readonly<RequestFacts> | undefined {
  return (res as Observed)[RECORD];
}

/** The request's id (from X-Request-Id when given, else a new one); every answer echoes it. */
export function requestIdOf(res: ServerResponse): string {
  return (res as Observed)[RECORD]?.reqId ?? '';
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const QUIET = new Set(['/healthz', '/readyz']);

function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

const LEVELS = { info: 30, warn: 40, error: 50 } as const;

/**
 * `traceIdOf`, given when tracing is on (tracing.ts), names the request's trace: its line then
 * carries `trace_id`.
 */
export function createRequestObserver(log: Logger, metrics: Metrics, traceIdOf?: (res: ServerResponse) => string | undefined) {
  // The stream and the bindings (`,"service":…`) of the logger, as pino writes them itself.
  const stream = (log as unknown as Record<symbol, { write(line: string): unknown }>)[pino.symbols.streamSym]!;
  const bindings = (log as unknown as Record<symbol, string>)[pino.symbols.chindingsSym] ?? '';

  /** The request line, as `log[level]({ method, url, status, responseTime, reqId, route, … }, msg)` writes it. */
  function writeLine(
    level: keyof typeof LEVELS,
    r: RequestRecord,
    status: number | 'aborted',
    ms: number,
    traceId: string | undefined,
  ): void {
    // reqId matches REQUEST_ID or is a UUID, method is an HTTP token, a trace id is hex: none needs escaping.
    stream.write(
      `{"level":${LEVELS[level]},"time":${Date.now()}${bindings},"method":"${r.method}","url":${JSON.stringify(r.url.slice(0, 512))}` +
        `,"status":${status === 'aborted' ? '"aborted"' : status},"responseTime":${Math.round(ms * 10) / 10},"reqId":"${r.reqId}"` +
        `,"route":${JSON.stringify(r.route)}${r.cache === undefined ? '' : `,"cache":${JSON.stringify(r.cache)}`}` +
        `${r.upstreamMs === undefined ? '' : `,"upstreamMs":${r.upstreamMs}`}${r.partner === undefined ? '' : `,"partner":${JSON.stringify(r.partner)}`}${traceId === undefined ? '' : `,"trace_id":"${traceId}"`},"msg":"${status === 'aborted' ? 'request aborted' : 'request'}"}\n`,
    );
  }

  /** Listener for the response's 'close' (one shared function: no closure per request). */
  function onClose(this: Observed): void {
    const r = this[RECORD]!;
    const ms = performance.now() - r.started;
    const finished = this.writableFinished;
    const status = this.statusCode;
    metrics.requests(r.route, r.method, finished ? String(status) : 'aborted').inc();
    metrics.requestDuration(r.route).observe(ms / 1000);
    if (QUIET.has(r.url)) return;
    // A visitor who leaves early is not a fault of ours.
    const level = finished && status >= 500 ? 'error' : finished && status >= 400 ? 'warn' : 'info';
    if (log.isLevelEnabled(level)) writeLine(level, r, finished ? status : 'aborted', ms, traceIdOf?.(this));
  }

  return function observeRequest(req: IncomingMessage, res: ServerResponse): void {
    // The URL is read now: routers and static handlers rewrite req.url on the way.
    (res as Observed)[RECORD] = new RequestRecord(requestId(req), req.method ?? 'OTHER', req.url ?? '', performance.now());
    res.on('close', onClose);
  };
}

export type RequestObserver = ReturnType<typeof createRequestObserver>;
