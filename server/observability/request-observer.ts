/**
 * One log line and the request metrics for every request, whichever layer answers it (the
 * API handler ahead of Express, or Express). Handlers note what they know about a request
 * (route, cache status, upstream time) with `observe(res, ...)`.
 *
 * One call to the service's logger per request, through pino's public API (its serializers,
 * redaction and hooks apply; docs/decisions/027): no child logger per request, as pino-http would
 * make. What is known of a request lives in one record per response, in the response's own
 * context (response-context.ts).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { contextOf, RequestRecord, type RequestFacts } from './response-context.js';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';

export function observe(res: ServerResponse, facts: RequestFacts): void {
  const record = contextOf(res).record;
  if (!record) return;
  if (facts.route !== undefined) record.route = facts.route;
  if (facts.cache !== undefined) record.cache = facts.cache;
  if (facts.upstreamMs !== undefined) record.upstreamMs = facts.upstreamMs;
  if (facts.partner !== undefined) record.partner = facts.partner;
}

/** What handlers have noted of a request so far (its route, its cache status), for its trace span. */
export function factsOf(res: ServerResponse): Readonly<RequestFacts> | undefined {
  return contextOf(res).record;
}

/** The request's id (from X-Request-Id when given, else a new one); every answer echoes it. */
export function requestIdOf(res: ServerResponse): string {
  return contextOf(res).record?.reqId ?? '';
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const QUIET = new Set(['/healthz', '/readyz']);
/** Routes never logged per request: browsers' beacons (server/rum), one per page view. */
const QUIET_ROUTES = new Set(['rum']);

function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * `traceIdOf`, given when tracing is on (tracing.ts), names the request's trace: its line then
 * carries `trace_id`.
 */
export function createRequestObserver(log: Logger, metrics: Metrics, traceIdOf?: (res: ServerResponse) => string | undefined) {
  /** The request line: `{ method, url, status, responseTime, reqId, route, cache?, upstreamMs?, partner?, trace_id? }`. */
  function writeLine(
    level: 'info' | 'warn' | 'error',
    r: RequestRecord,
    status: number | 'aborted',
    ms: number,
    traceId: string | undefined,
  ) {
    log[level](
      {
        method: r.method,
        url: r.url.slice(0, 512),
        status,
        responseTime: Math.round(ms * 10) / 10,
        reqId: r.reqId,
        route: r.route,
        cache: r.cache,
        upstreamMs: r.upstreamMs,
        partner: r.partner,
        trace_id: traceId,
      },
      status === 'aborted' ? 'request aborted' : 'request',
    );
  }

  /** Listener for the response's 'close' (one shared function: no closure per request). */
  function onClose(this: ServerResponse): void {
    const r = contextOf(this).record!;
    const ms = performance.now() - r.started;
    const finished = this.writableFinished;
    const status = this.statusCode;
    metrics.requests(r.route, r.method, finished ? String(status) : 'aborted').inc();
    metrics.requestDuration(r.route).observe(ms / 1000);
    if (QUIET.has(r.url) || QUIET_ROUTES.has(r.route)) return;
    // A visitor who leaves early is not a fault of ours.
    const level = finished && status >= 500 ? 'error' : finished && status >= 400 ? 'warn' : 'info';
    if (log.isLevelEnabled(level)) writeLine(level, r, finished ? status : 'aborted', ms, traceIdOf?.(this));
  }

  return function observeRequest(req: IncomingMessage, res: ServerResponse): void {
    // The URL is read now: routers and static handlers rewrite req.url on the way.
    contextOf(res).record = new RequestRecord(requestId(req), req.method ?? 'OTHER', req.url ?? '', performance.now());
    res.on('close', onClose);
  };
}

export type RequestObserver = ReturnType<typeof createRequestObserver>;
