/**
 * Per-client limits on what costs the content API (decisions 020 and 022): a request that causes
 * a call to the content API (it leads a fetch that neither this process nor the shared tier could
 * answer) spends one point of its client's budget, RATE_LIMIT_MISSES per RATE_LIMIT_WINDOW_S; a
 * page render spends at most one. Cached and shared answers, stale ones, waiting for another
 * request's fetch and background refreshes never spend. Over budget: 429 with Retry-After. The
 * budget is the fleet's with REDIS_URL (rate-limiter-flexible's Redis store, with a budget in
 * memory standing in whenever Redis cannot answer), the machine's with workers (kept by their
 * primary: rate-limiter-flexible's cluster limiter), else this process's. A partner that sends
 * its key (partner-keys.ts) spends a budget of its own, RATE_LIMIT_MISSES_PER_KEY. Each spend says
 * what is left, for the RateLimit and RateLimit-Policy headers (rate-limit-headers.ts). A client
 * refused a render's charge (a render that called nothing and kept nothing) is remembered here
 * until its window ends, so that its next renders are refused before they cost anything, with no
 * call to the budget's store (docs/decisions/032).
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
import type { Config } from '../settings/config.js';
import type { RedisLink } from './redis-link.js';
import { clientMemo } from '../http/client-memo.js';
import { problem } from '../http/problem.js';
import { clientKey, type TrustedProxies } from '../http/trusted-proxies.js';
import { BurstLog } from '../observability/burst-log.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { ContentError } from '../../shared/content-api.js';
import type { Partner } from '../http/partner-keys.js';
import { SpendLedger } from './spend-ledger.js';

/** What spends: an API miss, a page render's call, or a render charged when done (refused only for the next one). */
export type MissKind = 'api' | 'page' | 'render';

/** A budget as a client is told of it: its policy, and what is left of it in this window. */
export interface Budget {
  /** The policy's name in the RateLimit headers: `calls` for an address, `partner` for a key. */
  policy: 'calls' | 'partner';
  quota: number;
  windowS: number;
  remaining: number;
  /** Seconds until the window ends and the budget is whole again. */
  resetS: number;
}

export interface Spent {
  /** Where the client stands once this call is counted (none when no budget applies). */
  budget?: Budget;
  /** The 429 to answer with, when it was over. */
  refusal?: ContentError;
}

export interface MissLimiter {
  /** Spends one point of the client's budget (a partner's, with its key). */
  spend(req: IncomingMessage, kind: MissKind, partner?: Partner): Promise<Spent>;
  /** The 429 of a client refused a render's charge within its current window, if it was; spends nothing. */
  refusedNow(req: IncomingMessage): ContentError | undefined;
  /** The budget a request is under, for the headers of a 429 (`remaining` 0). */
  budgetOf(partner: Partner | undefined, retryAfterS: number): Budget | undefined;
  /** The clients that asked this process for the most points in the last window or two, most first. */
  spenders(): [client: string, points: number][];
}

export interface MissLimiterDeps {
  config: Pick<Config, 'RATE_LIMIT_MISSES' | 'RATE_LIMIT_MISSES_PER_KEY' | 'RATE_LIMIT_WINDOW_S' | 'REDIS_TIMEOUT_MS'>;
  redis: RedisLink | undefined;
  trusted: TrustedProxies;
  log: Logger;
  metrics: Metrics;
}

/** How long a worker waits for its primary's answer before it lets the request through. */
const CLUSTER_TIMEOUT_MS = 1_000;

type Limiter = RateLimiterAbstract | RLWrapperTimeouts;

/** A budget of `points` per window, kept where the service's processes share it (see above); none for 0. */
function budgetStore(points: number, duration: number, keyPrefix: string, deps: MissLimiterDeps): Limiter | undefined {
  if (points === 0) return undefined;
  const memory = new RateLimiterMemory({ points, duration, keyPrefix });
  // Redis away, or slower than its budget: the budget in this process's memory stands in at once.
  if (deps.redis) {
    return new RLWrapperTimeouts({
      limiter: new RateLimiterRedis({
        storeClient: deps.redis.client,
        useRedisPackage: true,
        rejectIfRedisNotReady: true,
        points,
        duration,
        keyPrefix,
      }),
      timeoutMs: deps.config.REDIS_TIMEOUT_MS,
      insuranceLimiter: memory,
    });
  }
  return cluster.isWorker ? new RateLimiterCluster({ points, duration, keyPrefix, timeoutMs: CLUSTER_TIMEOUT_MS }) : memory;
}

export function createMissLimiter(deps: MissLimiterDeps): MissLimiter {
  const { config, trusted, log, metrics } = deps;
  const duration = config.RATE_LIMIT_WINDOW_S;
  const ledger = new SpendLedger(duration * 1000);
  const budgets = {
    calls: { points: config.RATE_LIMIT_MISSES, limiter: budgetStore(config.RATE_LIMIT_MISSES, duration, 'site:rl', deps) },
    partner: {
      points: config.RATE_LIMIT_MISSES_PER_KEY,
      limiter: budgetStore(config.RATE_LIMIT_MISSES_PER_KEY, duration, 'site:rl:key', deps),
    },
  };
  // A burst ends after a quiet minute (or window, if longer), as the other limits' do: a flood
  // whose budgeted calls are slow goes quiet for longer than a short window, and is one burst.
  const bursts = new BurstLog(Math.max(60, duration) * 1000);
  /** Client → until when (epoch ms) it is refused: the end of the window it was refused in. */
  const refusedUntil = clientMemo<number>();
  const tooMany = (retryAfterS: number) =>
    problem('too_many_requests', `too many requests for content that is not cached; try again in ${retryAfterS} s`, retryAfterS);
  const budget = (policy: Budget['policy'], remaining: number, msBeforeNext: number): Budget => ({
    policy,
    quota: budgets[policy].points,
    windowS: duration,
    remaining: Math.max(0, remaining),
    resetS: Math.max(1, Math.ceil(msBeforeNext / 1000)),
  });

  return {
    spenders: () => ledger.top(),
    refusedNow(req) {
      const until = refusedUntil.get(clientKey(trusted.clientOf(req)));
      const left = until === undefined ? 0 : until - Date.now();
      return left > 0 ? tooMany(Math.ceil(left / 1000)) : undefined;
    },
    budgetOf(partner, retryAfterS) {
      const policy = partner ? 'partner' : 'calls';
      return budgets[policy].limiter ? budget(policy, 0, retryAfterS * 1000) : undefined;
    },
    async spend(req, kind, partner) {
      const policy = partner ? 'partner' : 'calls';
      const { limiter, points } = budgets[policy];
      // A partner is its name (wherever it calls from); anyone else, its address.
      const client = partner ? `partner:${partner.name}` : clientKey(trusted.clientOf(req));
      ledger.spent(client);
      if (partner) metrics.partnerCalls(partner.name).inc();
      if (!limiter) return {};
      try {
        const res = await limiter.consume(client);
        return { budget: budget(policy, res.remainingPoints, res.msBeforeNext) };
      } catch (rejected) {
        if (!(rejected instanceof RateLimiterRes)) {
          // Neither Redis nor memory (nor the primary) could say: serving is worth more than limiting.
          log.error({ err: rejected, client }, 'rate limiter failed; request let through');
          return {};
        }
        if (kind !== 'render') metrics.rateLimited(kind).inc();
        if (partner) metrics.partnerLimited(partner.name).inc();
        const retryAfterS = Math.max(1, Math.ceil(rejected.msBeforeNext / 1000));
        // A render refused its charge: the client gets no new render until its window ends. (A call
        // refused is not remembered so: a render whose reads are all cached, or stale, costs no point.)
        if (kind === 'render') refusedUntil.set(client, Date.now() + rejected.msBeforeNext);
        if (bursts.first(client)) {
          log.warn({ client, kind, limit: points, windowS: duration, retryAfterS }, 'client over its budget of calls to the content API');
        }
        return { budget: budget(policy, 0, rejected.msBeforeNext), refusal: tooMany(retryAfterS) };
      }
    },
  };
}
