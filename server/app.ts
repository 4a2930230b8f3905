/**
 * The Express app: health, metrics, static files, robots and sitemap, and pages. The proxy API
 * and cached pages are answered ahead of it (server/http/front-door.ts), which has already set
 * the headers every answer carries.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { AppSource } from './app-source.js';
import { clientFaultOf, describeFault, errorHeaders } from './http/client-fault.js';
import { asProblem, problem, sendProblem } from './http/problem.js';
import type { Logger } from './observability/logger.js';
import { factsOf, observe, requestIdOf } from './observability/request-observer.js';
import { A11Y_PATH, TEXT_SIZE_PATH } from '../shared/constants.js';
import { createRefusal } from './render/refusal.js';
import { a11ySwitch } from './render/a11y-switch.js';
import { textSizeSwitch } from './render/text-size.js';

export interface AppDeps {
  source: AppSource;
  log: Logger;
  /** /metrics on this port (operations/operator-routes.ts); undefined when METRICS_PORT moves it off. */
  operatorRoutes: ((app: express.Express) => void) | undefined;
  /** Ready to serve (the content API answers, or the cache holds something), not, or too busy to take more now. */
  readiness: () => Promise<'ready' | 'not ready' | 'busy'>;
  pages: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  /** The site is served over https (PUBLIC_ORIGIN): its cookies are Secure. */
  secureCookies: boolean;
  extraRoutes?: (app: express.Express) => void;
}

const ALLOW = ['allow', 'GET, HEAD'];

export function createApp(deps: AppDeps): express.Express {
  const app = express();
  // A request refused as the client's fault, answered in the shape its reader takes; 404s with the not-found page.
  const refuse = createRefusal(deps.pages);
  app.disable('x-powered-by');
  app.set('etag', false);

  app.get('/healthz', (_req, res) => {
    observe(res, { route: 'health' });
    res.set('cache-control', 'no-store').json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    observe(res, { route: 'health' });
    const status = await deps.readiness();
    res
      .status(status === 'ready' ? 200 : 503)
      .set('cache-control', 'no-store')
      .json({ status });
  });
  deps.operatorRoutes?.(app);

  deps.source.mountStatic(app);
  app.get('/favicon.ico', (_req, res) => {
    observe(res, { route: 'static' });
    res.redirect(301, '/media/brand/logo.svg');
  });
  app.get(TEXT_SIZE_PATH, textSizeSwitch(deps.secureCookies));
  app.get(A11Y_PATH, a11ySwitch(deps.secureCookies));
  deps.extraRoutes?.(app);

  app.get('/{*path}', (req, res) => deps.pages(req, res));
  app.all('/{*path}', (req, res) => {
    observe(res, { route: 'other' });
    sendProblem(res, problem('method_not_allowed', `${req.method} is not allowed; use GET or HEAD`), ALLOW);
  });

  // Whatever no route took (`OPTIONS *`, for one).
  app.use((_req: Request, res: Response) => {
    observe(res, { route: 'other' });
    sendProblem(res, problem('not_found', 'nothing here'));
  });

  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    // The static files' handlers, Express and its parsers mark what was wrong with the request
    // (a missing file, a path that cannot be decoded or is refused): the client's fault, not ours.
    const fault = clientFaultOf(error);
    if (fault) {
      const { route } = factsOf(res) ?? {};
      deps.log.info({ reqId: requestIdOf(res), route, status: fault.status, error: describeFault(error) }, 'request refused');
      if (res.headersSent) res.destroy();
      else refuse(req, res, fault, errorHeaders(error));
      return;
    }
    deps.log.error({ err: error, url: req.originalUrl }, 'request failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendProblem(res, asProblem(error));
  });
  return app;
}
