/**
 * What expensive work must pass before it starts (decisions 020 and 022): a process that is
 * overloaded refuses new renders (503) and calls to the content API, and a client over its budget
 * is refused the call (429). Only the request that causes a call to the content API comes here
 * (content-cache.ts asks, through the `admit` its caller gave it): cached, shared and stale
 * answers, and requests waiting for another's fetch, never do. A render that called nothing and
 * left nothing a cache keeps (an error page for a parameter that names nothing) is charged when
 * it is done (docs/decisions/032), and a client refused such a charge gets no new render until
 * its window ends. Also what is counted and logged when a call to the content API is
 * refused a slot.
 */
import type { IncomingMessage } from 'node:http';
import type { ContentError } from '../../shared/content-api.js';
import type { Config } from '../settings/config.js';
import type { RedisLink } from './redis-link.js';
import { problem } from '../http/problem.js';
import type { TrustedProxies } from '../http/trusted-proxies.js';
import { BurstLog } from '../observability/burst-log.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { EventLoopLoad } from './event-loop-load.js';
import type { Partner } from '../http/partner-keys.js';
import { createMissLimiter, type Budget, type MissKind, type Spent } from './miss-limiter.js';
import type { GateRefusal } from './concurrency-gate.js';

export interface Admission {
  /** Overloaded now: the 503 to refuse new work with, else undefined. */
  overloaded(): ContentError | undefined;
  /**
   * For a request about to cause a call to the content API (a partner's, with its key): where its
   * budget stands, and the 503 or 429 to refuse it with, if it is refused.
   */
  admitCall(req: IncomingMessage, kind: MissKind, partner?: Partner): Promise<Spent>;
  /** Before a render starts: the 503 of an overloaded process, or the 429 of a client refused a render's charge within its window. */
  refuseRender(req: IncomingMessage): ContentError | undefined;
  /** Spends a point for a render done that called nothing and left nothing a cache keeps. */
  charge(req: IncomingMessage): void;
  /** The budget a refused request was under, for the RateLimit headers of its 429. */
  budgetOf(partner: Partner | undefined, retryAfterS: number): Budget | undefined;
  /** The clients that asked for the most budget lately, most first. */
  spenders(): [client: string, points: number][];
  /** A call to the content API was refused a slot (concurrency-gate.ts). */
  upstreamRefused(why: GateRefusal): void;
  /** A render was refused a turn in its client's lane (render-lanes.ts). */
  laneRefused(why: GateRefusal): void;
  readonly busy: boolean;
  stop(): void;
}

export function createAdmission(deps: {
  config: Pick<
    Config,
    | 'SHED_EVENT_LOOP_LAG_MS'
    | 'RATE_LIMIT_MISSES'
    | 'RATE_LIMIT_MISSES_PER_KEY'
    | 'RATE_LIMIT_WINDOW_S'
    | 'REDIS_TIMEOUT_MS'
    | 'UPSTREAM_QUEUE'
    | 'UPSTREAM_CONNECTIONS'
    | 'RENDERS_PER_CLIENT'
  >;
  redis: RedisLink | undefined;
  trusted: TrustedProxies;
  log: Logger;
  metrics: Metrics;
  /** Told when the process becomes busy or no longer is (a worker tells its primary). */
  onBusy?: ((busy: boolean) => void) | undefined;
}): Admission {
  const { config, log, metrics } = deps;
  const load = new EventLoopLoad(config.SHED_EVENT_LOOP_LAG_MS, (busy, lagMs) => {
    deps.onBusy?.(busy);
    if (busy)
      log.warn(
        { lagMs: Math.round(lagMs), thresholdMs: config.SHED_EVENT_LOOP_LAG_MS },
        'overloaded: refusing renders and misses until the event loop keeps up',
      );
    else log.info('no longer overloaded');
  });
  load.start();
  const limiter = createMissLimiter(deps);
  const bursts = new BurstLog(60_000);

  const overloaded = () => {
    if (!load.busy) return undefined;
    metrics.shed('event_loop').inc();
    return problem('busy', 'the service is overloaded; try again shortly', 1);
  };

  return {
    overloaded,
    admitCall(req, kind, partner) {
      const busy = overloaded();
      return busy ? Promise.resolve({ refusal: busy }) : limiter.spend(req, kind, partner);
    },
    refuseRender(req) {
      const refusal = overloaded() ?? limiter.refusedNow(req);
      if (refusal?.code === 'too_many_requests') metrics.rateLimited('page').inc();
      return refusal;
    },
    charge(req) {
      void limiter.spend(req, 'render');
    },
    budgetOf: (partner, retryAfterS) => limiter.budgetOf(partner, retryAfterS),
    spenders: () => limiter.spenders(),
    upstreamRefused(why) {
      metrics.shed('upstream_queue').inc();
      if (bursts.first(why)) {
        log.warn(
          { why, inFlight: config.UPSTREAM_CONNECTIONS, queue: config.UPSTREAM_QUEUE },
          'calls to the content API refused: too many at once',
        );
      }
    },
    laneRefused(why) {
      metrics.shed('render_lane').inc();
      if (bursts.first(`lane ${why}`))
        log.warn({ why, perClient: config.RENDERS_PER_CLIENT }, 'a render refused: its client waited too long for its turn');
    },
    get busy() {
      return load.busy;
    },
    stop: () => load.stop(),
  };
}
