/**
 * The service's link to Redis keeps each call within its budget, judged by when Redis answers,
 * not by when this process gets round to reading the answer: a render that keeps the event loop
 * busy past the budget must not turn an answer already sent into a timeout (three of which open
 * the breaker, and the process goes on without the fleet's cache for a second).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RedisLink } from '../server/reliability/redis-link.js';
import { startedRedisLink, startRedis, type RedisServer } from './support/redis-server.js';

// Long enough that Redis, another process on a machine the other suites keep busy, answers within
// it; the loop is then kept busy for twice as long.
const BUDGET_MS = 200;
let redis: RedisServer;
let link: RedisLink;

beforeAll(async () => {
  redis = await startRedis();
  link = await startedRedisLink(redis, BUDGET_MS);
});
afterAll(async () => {
  await link.close();
  await redis.stop();
});

/** Keeps this process's event loop busy, as a long render does. */
function busyFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('a call to Redis', () => {
  it('takes an answer Redis sent within the budget, though the event loop was busy past it', async () => {
    for (let i = 0; i < 5; i++) {
      const call = link.call('ping', (client) => client.ping());
      // node-redis writes its commands on the next turn; then the loop is kept busy past the budget
      // (within node-redis's own limit, four budgets, which empties its queue).
      await new Promise((resolve) => setImmediate(resolve));
      busyFor(BUDGET_MS * 2);
      expect(await call).toBe('PONG');
    }
  });

  it('goes on without Redis when it does not answer', async () => {
    redis.pause();
    try {
      expect(await link.call('ping', (client) => client.ping())).toBeUndefined();
    } finally {
      redis.resume();
    }
  });
});
