/**
 * What operators read: `/metrics` (Prometheus) and `/status` (the same state drawn as a picture,
 * with this process's recent warnings and errors). Never public by accident (docs/operations.md):
 * - with METRICS_PORT, only on that internal listener (what Prometheus or Kubernetes scrapes),
 *   and not on the public port at all;
 * - without it, on the public port, to a caller with the METRICS_TOKEN bearer token, or, when no
 *   token is set, to a caller on this machine that no proxy forwarded (a request through a
 *   proxy or edge on the same machine is someone else's).
 */
import { hostname } from 'node:os';
import express, { type Express, type Request, type Response } from 'express';
import { bearerMatches } from '../http/bearer.js';
import { problem, sendProblem } from '../http/problem.js';
import type { ServiceReport } from '../fleet/primary-link.js';
import type { Logger } from '../observability/logger.js';
import { observe } from '../observability/request-observer.js';
import { renderStatusPage } from './status-page.js';

export interface OperatorDeps {
  metricsText: () => Promise<string>;
  /** The whole service's state (with workers, all of them), for /status. */
  report: () => Promise<ServiceReport>;
  contentType: string;
  token: string | undefined;
  log: Logger;
}

const THIS_PROCESS = `pid ${process.pid} on ${hostname()}`;

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

const fromThisMachine = (req: Request) =>
  LOOPBACK.has(req.socket.remoteAddress ?? '') && req.get('x-forwarded-for') === undefined && req.get('forwarded') === undefined;

/** The operator endpoints; `internal`: on the internal listener, where only the token (if any) is asked for. */
export function operatorRoutes(deps: OperatorDeps, internal: boolean) {
  /** What `read` gives an operator, or undefined when a problem was answered instead. */
  async function gathered<T>(req: Request, res: Response, read: () => Promise<T>): Promise<T | undefined> {
    if (deps.token && !bearerMatches(req.get('authorization'), deps.token)) {
      sendProblem(res, problem('unauthorized', 'a bearer token is required'), ['www-authenticate', 'Bearer']);
      return undefined;
    }
    if (!deps.token && !internal && !fromThisMachine(req)) {
      sendProblem(res, problem('forbidden', 'metrics are served to this machine only; set METRICS_PORT or METRICS_TOKEN'));
      return undefined;
    }
    try {
      return await read();
    } catch (error) {
      deps.log.error({ err: error }, 'metrics could not be gathered');
      sendProblem(res, problem('internal', 'metrics could not be gathered'));
      return undefined;
    }
  }

  return (app: Express) => {
    app.get('/metrics', async (req, res) => {
      observe(res, { route: 'metrics' });
      const text = await gathered(req, res, deps.metricsText);
      if (text !== undefined) res.set('content-type', deps.contentType).set('cache-control', 'no-store').send(text);
    });
    app.get('/status', async (req, res) => {
      observe(res, { route: 'metrics' });
      const report = await gathered(req, res, deps.report);
      if (report === undefined) return;
      const page = renderStatusPage({ report, now: new Date(), process: THIS_PROCESS });
      res.set('content-type', 'text/html; charset=utf-8').set('cache-control', 'no-store').send(page);
    });
  };
}

/** The internal listener's app (METRICS_PORT): the operator endpoints and nothing else. */
export function operatorApp(deps: OperatorDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  operatorRoutes(deps, true)(app);
  app.use((_req, res) => sendProblem(res, problem('not_found', 'this port serves /metrics and /status only')));
  return app;
}
