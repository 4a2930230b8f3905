/**
 * One log line and the request metrics for every request, whichever layer answers it (the
 * API handler ahead of Express, or Express). Handlers note what they know about a request
 * (route, cache status, upstream time) with `observe(res, ...)`.
 *
 * Written directly on pino rather than with pino-http: pino-http builds a child logger for
 * every request, which costs more than answering a cached hit (docs/decisions/007).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from './logger.js';
import { childrenOf, type Metrics } from './metrics.js';

export interface RequestFacts {
  reqId?: string;
  /** A bounded label: an API path template, a page route, or a class such as `static`. */
  route?: string;
  cache?: string;
  upstreamMs?: number;
}

const FACTS = Symbol('request facts');
type Observed = ServerResponse & { [FACTS]?: RequestFacts };

export function observe(res: ServerResponse, facts: RequestFacts): void {
  const o = res as Observed;
  if (o[FACTS]) Object.assign(o[FACTS], facts);
  else o[FACTS] = { ...facts };
}

/** The request's id (from X-Request-Id when given, else a new one); every answer echoes it. */
export function requestIdOf(res: ServerResponse): string {
  return (res as Observed)[FACTS]?.reqId ?? '';
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const QUIET = new Set(['/healthz', '/readyz']);

function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export function createRequestObserver(log: Logger, metrics: Metrics) {
  const requests = childrenOf(metrics.requests);
  const durations = childrenOf(metrics.requestDuration);

  return function observeRequest(req: IncomingMessage, res: ServerResponse): void {
    const started = performance.now();
    // Read now: routers and static handlers rewrite req.url on the way.
    const url = req.url ?? '';
    observe(res, { reqId: requestId(req) });
    res.once('close', () => {
      const facts = (res as Observed)[FACTS]!;
      const route = facts.route ?? 'other';
      const finished = res.writableFinished;
      const ms = performance.now() - started;
      requests(route, req.method ?? 'OTHER', finished ? String(res.statusCode) : 'aborted').inc();
      durations(route).observe(ms / 1000);
      if (QUIET.has(url)) return;
      // A visitor who leaves early is not a fault of ours.
      const level = finished && res.statusCode >= 500 ? 'error' : finished && res.statusCode >= 400 ? 'warn' : 'info';
      log[level](
        {
          method: req.method,
          url: url.slice(0, 512),
          status: finished ? res.statusCode : 'aborted',
          responseTime: Math.round(ms * 10) / 10,
          ...facts,
        },
        finished ? 'request' : 'request aborted',
      );
    });
  };
}
