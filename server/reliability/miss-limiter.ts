/**
 * Per-client limits on what costs the content API (docs/decisions/020): an API request or a page
 * render that needs something the caches do not have spends one point of its client's budget,
 * RATE_LIMIT_MISSES per RATE_LIMIT_WINDOW_S; a cached answer or page never does. Over budget:
 * 429 with Retry-After. With REDIS_URL the budget is the fleet's (rate-limiter-flexible's Redis
 * store), with a budget in memory standing in whenever Redis cannot answer.
 */
import type { IncomingMessage } from 'node:http';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, RLWrapperTimeouts } from 'rate-limiter-flexible';
import type { Config } from '../config.js';
import type { RedisLink } from '../fleet/redis-link.js';
import { problem } from '../http/problem.js';
import { clientKey, type TrustedProxies } from '../http/trusted-proxies.js';
import { BurstLog } from '../observability/burst-log.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { ContentError } from '../../shared/content-api.js';

export type MissKind = 'api' | 'page';

export interface MissLimiter {
  /** Spends one point of the client's budget: undefined when it may go on, else the 429 to answer with. */
  spend(req: IncomingMessage, kind: MissKind): Promise<ContentError | undefined>;
}

export interface MissLimiterDeps {
  config: Pick<Config, 'RATE_LIMIT_MISSES' | 'RATE_LIMIT_WINDOW_S' | 'REDIS_TIMEOUT_MS'>;
  redis: RedisLink | undefined;
  trusted: TrustedProxies;
  log: Logger;
  metrics: Metrics;
}

/** No limit (RATE_LIMIT_MISSES=0). */
const unlimited: MissLimiter = { spend: () => Promise.resolve(undefined) };

export function createMissLimiter({ config, redis, trusted, log, metrics }: MissLimiterDeps): MissLimiter {
  const points = config.RATE_LIMIT_MISSES;
  const duration = config.RATE_LIMIT_WINDOW_S;
  const budgetMs = config.REDIS_TIMEOUT_MS;
  if (points === 0) return unlimited;
  const memory = new RateLimiterMemory({ points, duration, keyPrefix: 'site:rl' });
  // Redis away, or slower than its budget: the budget in this process's memory stands in at once.
  const limiter = redis
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
    : memory;
  const bursts = new BurstLog(duration * 1000);

  return {
    async spend(req, kind) {
      const client = clientKey(trusted.clientOf(req));
      try {
        await limiter.consume(client);
        return undefined;
      } catch (rejected) {
        if (!(rejected instanceof RateLimiterRes)) {
          // Neither Redis nor memory could say: serving is worth more than limiting.
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
