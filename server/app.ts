/**
 * The Express app: health, metrics, static files, robots and sitemap, and pages. The proxy API
 * and cached pages are answered ahead of it (server/http/front-door.ts), which has already set
 * the headers every answer carries.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import type { AppSource } from './app-source.js';
import { asProblem, problem, sendProblem } from './http/problem.js';
import type { Logger } from './observability/logger.js';
import { observe } from './observability/request-observer.js';
import { A11Y_PATH, TEXT_SIZE_PATH } from '../shared/constants.js';
import { BAD_ADDRESS_HTML } from './render/plain-pages.js';
import { a11ySwitch } from './render/a11y-switch.js';
import { textSizeSwitch } from './render/text-size.js';

export interface AppDeps {
  source: AppSource;
  log: Logger;
  /** /metrics on this port (operations/operator-routes.ts); undefined when METRICS_PORT moves it off. */
  operatorRoutes: ((app: express.Express) => void) | undefined;
  /** Ready to serve (the content API answers, or the cache holds something), not, or too busy to take more now. */
  readiness: () => Promise<'ready' | 'not ready' | 'busy'>;
  pages: (req: Request, res: Response) => Promise<void>;
  /** The site is served over https (PUBLIC_ORIGIN): its cookies are Secure. */
  secureCookies: boolean;
  extraRoutes?: (app: express.Express) => void;
}

/** A page request from a browser: GET or HEAD outside the API and static files, preferring HTML. */
function wantsPage(req: Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (/^\/(api|assets|media)(\/|$)/.test(req.path)) return false;
  return req.accepts(['json', 'html']) === 'html';
}

const ALLOW = ['allow', 'GET, HEAD'];

export function createApp(deps: AppDeps): express.Express {
  const app = express();
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
    // Express and the static handlers mark what was wrong with the request: a missing file
    // (404) or a path that cannot be decoded (400).
    const status = (error as { status?: number }).status;
    if (status === 400 && wantsPage(req)) {
      // A visitor's browser gets a page it can read; an API client, the JSON error below.
      observe(res, { route: 'other' });
      res.status(400).set('cache-control', 'no-store').type('html').send(BAD_ADDRESS_HTML);
      return;
    }
    if (status === 404 || status === 400) {
      observe(res, { route: 'other' });
      sendProblem(res, status === 404 ? problem('not_found', 'no such file') : problem('bad_request', 'the URL cannot be decoded'));
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
