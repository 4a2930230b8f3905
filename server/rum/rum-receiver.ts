/**
 * `POST /rum`: a browser's report of one page view (shared/rum.ts; docs/product/privacy.md). Each
 * refusal is decided before the work it would cost: off (404) while RUM_SAMPLE_RATE is 0; from
 * another site (403); a declared body over 2 KB (413, unread); past the client's budget of
 * RUM_BEACONS_PER_MINUTE (429, unread); then the body, read up to 2 KB, must fit the schema (400).
 * A browser that asks for privacy (`Sec-GPC: 1`) is answered 204 and nothing is recorded. Only the
 * route (from the route table), the device class and the page's layout are kept, as histogram
 * labels; no address, User-Agent, cookie or identifier. No beacon is logged; refusals are counted,
 * and logged once per kind and burst.
 */
import cluster from 'node:cluster';
import express, { type Express, type Request, type Response } from 'express';
import { RateLimiterCluster, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { routeAt } from '../../shared/site/href.js';
import { RUM_MAX_BODY_BYTES, RUM_PATH } from '../../shared/rum.js';
import type { Config } from '../settings/config.js';
import { problem, sendProblem, type ProblemCode } from '../http/problem.js';
import { clientKey, type TrustedProxies } from '../http/trusted-proxies.js';
import { BurstLog } from '../observability/burst-log.js';
import type { Logger } from '../observability/logger.js';
import { observe } from '../observability/request-observer.js';
import { variantOf } from '../render/page-variant.js';
import { parseBeacon } from './beacon.js';
import { deviceClassOf } from './device-class.js';
import type { BeaconResult, RumMetrics } from './rum-metrics.js';

export interface RumDeps {
  config: Pick<Config, 'RUM_SAMPLE_RATE' | 'RUM_BEACONS_PER_MINUTE' | 'REDIS_URL'>;
  trusted: TrustedProxies;
  metrics: RumMetrics;
  log: Logger;
}

const BUDGET_WINDOW_S = 60;

export function rumRoutes(deps: RumDeps) {
  const { config, trusted, metrics, log } = deps;
  const budget = { points: config.RUM_BEACONS_PER_MINUTE, duration: BUDGET_WINDOW_S, keyPrefix: 'site:rum' };
  // The machine's budget with workers (their primary keeps it, as it keeps the budget of calls
  // without Redis); each process's own otherwise. Addresses are held in memory for the window only.
  const limiter =
    cluster.isWorker && !config.REDIS_URL ? new RateLimiterCluster({ ...budget, timeoutMs: 1_000 }) : new RateLimiterMemory(budget);
  const bursts = new BurstLog(BUDGET_WINDOW_S * 1000);
  const readBody = express.raw({ type: () => true, limit: RUM_MAX_BODY_BYTES });

  const refuse = (
    res: Response,
    result: Exclude<BeaconResult, 'accepted' | 'opted_out'>,
    code: ProblemCode,
    message: string,
    retryAfterS?: number,
  ) => {
    metrics.beacon(result);
    if (bursts.first(result)) log.warn({ result, reason: message.slice(0, 200) }, 'rum beacons refused');
    sendProblem(res, problem(code, message, retryAfterS));
  };
  const noContent = (res: Response) => res.status(204).set('cache-control', 'no-store').end();

  /** Whether the client may send one more beacon now; answers the refusal when not. */
  const withinBudget = async (req: Request, res: Response): Promise<boolean> => {
    try {
      await limiter.consume(clientKey(trusted.clientOf(req)));
      return true;
    } catch (rejected) {
      if (!(rejected instanceof RateLimiterRes)) {
        // The primary did not answer in time: a beacon is not worth waiting for, nor refusing a visitor.
        if (bursts.first('budget')) log.error({ err: rejected }, 'rum beacon budget could not be read; beacon taken');
        return true;
      }
      const retryAfterS = Math.max(1, Math.ceil(rejected.msBeforeNext / 1000));
      refuse(res, 'over_budget', 'too_many_requests', `over ${config.RUM_BEACONS_PER_MINUTE} beacons a minute`, retryAfterS);
      return false;
    }
  };

  return (app: Express) => {
    app.post(RUM_PATH, async (req, res, next) => {
      observe(res, { route: 'rum' });
      if (config.RUM_SAMPLE_RATE === 0) return sendProblem(res, problem('not_found', 'real-user measurement is off'));
      const site = req.get('sec-fetch-site');
      if (site !== undefined && site !== 'same-origin')
        return refuse(res, 'cross_site', 'forbidden', 'beacons come from this site’s own pages');
      if (Number(req.get('content-length') ?? 0) > RUM_MAX_BODY_BYTES)
        return refuse(res, 'too_large', 'payload_too_large', `a beacon is at most ${RUM_MAX_BODY_BYTES} bytes`);
      if (req.get('sec-gpc') === '1') {
        metrics.beacon('opted_out');
        return noContent(res);
      }
      if (await withinBudget(req, res)) next();
    });
    app.post(RUM_PATH, (req, res) =>
      readBody(req, res, (error?: unknown) => {
        if (error) {
          const tooLarge = (error as { status?: number }).status === 413;
          if (tooLarge) return refuse(res, 'too_large', 'payload_too_large', `a beacon is at most ${RUM_MAX_BODY_BYTES} bytes`);
          return refuse(res, 'invalid', 'bad_request', 'the body could not be read');
        }
        const beacon = parseBeacon(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
        if ('error' in beacon) return refuse(res, 'invalid', 'bad_request', beacon.error);
        const route = routeAt(beacon.page.split(/[?#]/, 1)[0]!) ?? 'other';
        metrics.pageView({ route, device: deviceClassOf(req), variant: variantOf(req, trusted).layout }, beacon.metrics, beacon.lcpElement);
        metrics.beacon('accepted');
        noContent(res);
      }),
    );
  };
}
