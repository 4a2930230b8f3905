/**
 * Per-client limits on what costs the content API (decisions 020 and 022): a request that causes
 * a call to the content API (it leads a fetch that neither this process nor the shared tier could
 * answer) spends one point of its client's budget, RATE_LIMIT_MISSES per RATE_LIMIT_WINDOW_S; a
 * page render spends at most one. Cached and shared answers, stale ones, waiting for another
 * request's fetch and background refreshes never spend. Over budget: 429 with Retry-After. The
 * budget is the fleet's with REDIS_URL (rate-limiter-flexible's Redis store, with a budget in
 * memory standing in whenever Redis cannot answer), the machine's with workers (kept by their
 * primary: rate-limiter-flexible's cluster limiter), else this process's.
 */
import cluster from 'node:cluster';
import type { IncomingMessage } from 'node:http';
import {
  RateLimiterCluster,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  RLWrapperTimeouts,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { Config } from '../config.js';
import type { RedisLink } from '../fleet/redis-link.js';
import { problem } from '../http/problem.js';
import { clientKey, type TrustedProxies } from '../http/trusted-proxies.js';
import { BurstLog } from '../observability/burst-log.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { ContentError } from '../../shared/content-api.js';
import { SpendLedger } from './spend-ledger.js';

export type MissKind = 'api' | 'page';

export interface MissLimiter {
  /** Spends one point of the client's budget: undefined when it may go on, else the 429 to answer with. */
  spend(req: IncomingMessage, kind: MissKind): Promise<ContentError | undefined>;
  /** The clients that asked this process for the most points in the last window or two, most first. */
  spenders(): [client: string, points: number][];
}

export interface MissLimiterDeps {
  config: Pick<Config, 'RATE_LIMIT_MISSES' | 'RATE_LIMIT_WINDOW_S' | 'REDIS_TIMEOUT_MS'>;
  redis: RedisLink | undefined;
  trusted: TrustedProxies;
  log: Logger;
  metrics: Metrics;
}

/** How long a worker waits for its primary's answer before it lets the request through. */
const CLUSTER_TIMEOUT_MS = 1_000;

export function createMissLimiter({ config, redis, trusted, log, metrics }: MissLimiterDeps): MissLimiter {
  const points = config.RATE_LIMIT_MISSES;
  const duration = config.RATE_LIMIT_WINDOW_S;
  const budgetMs = config.REDIS_TIMEOUT_MS;
  const ledger = new SpendLedger(duration * 1000);
  if (points === 0) return { spend: () => Promise.resolve(undefined), spenders: () => [] };
  const memory = new RateLimiterMemory({ points, duration, keyPrefix: 'site:rl' });
  // Redis away, or slower than its budget: the budget in this process's memory stands in at once.
  const limiter: RateLimiterAbstract | RLWrapperTimeouts = redis
    ? new RLWrapperTimeouts({
        limiter: new RateLimiterRedis({
          storeClient: redis.client,
          useRedisPackage: true,
          rejectIfRedisNotReady: true,
          points,
          duration,
          keyPrefix: 'site:rl',
        }),
        timeoutMs: budgetMs,
        insuranceLimiter: memory,
      })
    : cluster.isWorker
      ? new RateLimiterCluster({ points, duration, keyPrefix: 'site:rl', timeoutMs: CLUSTER_TIMEOUT_MS })
      : memory;
  const bursts = new BurstLog(duration * 1000);

  return {
    spenders: () => ledger.top(),
    async spend(req, kind) {
      const client = clientKey(trusted.clientOf(req));
      ledger.spent(client);
      try {
        await limiter.consume(client);
        return undefined;
      } catch (rejected) {
        if (!(rejected instanceof RateLimiterRes)) {
          // Neither Redis nor memory (nor the primary) could say: serving is worth more than limiting.
          log.error({ err: rejected, client }, 'rate limiter failed; request let through');
          return undefined;
        }
        metrics.rateLimited(kind).inc();
        const retryAfterS = Math.max(1, Math.ceil(rejected.msBeforeNext / 1000));
        if (bursts.first(client)) {
          log.warn(
            { client, kind, limit: points, windowS: duration, retryAfterS },
            'client over its limit of requests the caches cannot answer',
          );
        }
        return problem('too_many_requests', `too many requests for content that is not cached; try again in ${retryAfterS} s`, retryAfterS);
      }
    },
  };
}
