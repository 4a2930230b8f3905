/**
 * One log line and the request metrics for every request, whichever layer answers it (the
 * API handler ahead of Express, or Express). Handlers note what they know about a request
 * (route, cache status, upstream time) with `observe(res, ...)`.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pinoHttp } from 'pino-http';
import type { Logger } from './logger.js';
import type { Metrics } from './metrics.js';

export interface RequestFacts {
  /** A bounded label: an API path template, a page route, or a class such as `static`. */
  route?: string;
  cache?: string;
  upstreamMs?: number;
}

const FACTS = Symbol('request facts');
type Observed = ServerResponse & { [FACTS]?: RequestFacts };

export function observe(res: ServerResponse, facts: RequestFacts): void {
  const o = res as Observed;
  o[FACTS] = { ...o[FACTS], ...facts };
}

function factsOf(res: ServerResponse): RequestFacts {
  return (res as Observed)[FACTS] ?? {};
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const QUIET = new Set(['/healthz', '/readyz']);

export function createRequestObserver(logger: Logger, metrics: Metrics) {
  const httpLogger = pinoHttp({
    logger,
    quietReqLogger: true,
    genReqId: (req, res) => {
      const incoming = req.headers['x-request-id'];
      const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
      res.setHeader('x-request-id', id);
      return id;
    },
    autoLogging: { ignore: (req) => QUIET.has(req.url ?? '') },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request failed',
    customSuccessObject: (_req, res, value) => ({ ...value, ...factsOf(res) }),
    customErrorObject: (_req, res, _err, value) => ({ ...value, ...factsOf(res) }),
    serializers: {
      req: (req: { method: string; url: string; headers: Record<string, string> }) => ({
        method: req.method,
        url: req.url.slice(0, 512),
        ua: req.headers['user-agent']?.slice(0, 256),
      }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
    },
  });

  return function observeRequest(req: IncomingMessage, res: ServerResponse): void {
    httpLogger(req, res);
    const started = performance.now();
    res.once('close', () => {
      const route = factsOf(res).route ?? 'other';
      const status = res.writableFinished ? String(res.statusCode) : 'aborted';
      metrics.requests.inc({ route, method: req.method ?? 'OTHER', status });
      metrics.requestDuration.observe({ route }, (performance.now() - started) / 1000);
    });
  };
}
