/**
 * The cache's own housekeeping is not the content API's failure (docs/decisions/033): lru-cache
 * aborts a load whose entry it evicts, and a tiny cache under a burst of misses evicts loads in
 * flight. The call runs on to its answer, the request waiting for it gets that answer, and
 * nothing counts against the breaker or the content API's error metrics.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtApp } from '../server/app-source.js';
import { loadConfig } from '../server/settings/config.js';
import { createService, type Service } from '../server/service.js';
import { metric } from './support/polling.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

let upstream: TestUpstream;
let service: Service;
let url: string;
const logs: Record<string, unknown>[] = [];

beforeAll(async () => {
  upstream = await startTestUpstream();
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const config = loadConfig({
    UPSTREAM_URL: upstream.url,
    RATE_LIMIT_MISSES: '0',
    SHED_EVENT_LOOP_LAG_MS: '0',
    MAX_CONNECTIONS_PER_CLIENT: '1000',
    LOG_LEVEL: 'warn',
  });
  // A cache of 32 KB (the setting's floor is 1 MiB): a few dozen small answers fill it.
  service = await createService({ ...config, CACHE_MAX_BYTES: 32 * 1024 }, { logger: pino({ level: 'warn' }, sink), app: builtApp() });
  url = await service.listen(0, '127.0.0.1');
});
afterAll(async () => {
  await service?.close();
  await upstream?.stop();
});

describe('a load evicted from a tiny cache while it runs', () => {
  it('is answered all the same, with the breaker closed and no 500, among a hundred misses evicting each other', async () => {
    // One slow call: its entry waits, unfinished, while the misses below fill the cache behind it.
    upstream.delayMs = 1_500;
    const slow = fetch(`${url}/api/banner`);
    await expect.poll(() => upstream.callsTo('/api/banner'), { timeout: 5_000, message: 'the slow call' }).toBe(1);
    // A hundred small misses at once, answered after a moment: their loads evict each other's too.
    upstream.delayMs = 30;
    const misses = await Promise.all(Array.from({ length: 100 }, (_, i) => fetch(`${url}/api/news/${900_000 + i}`)));
    expect(misses.map((r) => r.status)).toEqual(Array(100).fill(404));

    const banner = await slow;
    expect(banner.status).toBe(200);
    expect(((await banner.json()) as { data: unknown[] }).data.length).toBeGreaterThan(0);
    // It was evicted: nothing kept it, so the next request calls the content API again.
    upstream.delayMs = 0;
    expect((await fetch(`${url}/api/banner`)).headers.get('x-cache')).toBe('MISS');
    expect(upstream.callsTo('/api/banner')).toBe(2);

    expect(await metric({ url }, 'upstream_circuit_open')).toBe(0);
    const errors = (await (await fetch(`${url}/metrics`)).text()).split('\n').filter((l) => l.startsWith('upstream_errors_total{'));
    expect(errors).toEqual([]);
    expect(logs.filter((l) => l.msg === 'upstream call failed' || (l.level as number) >= 50)).toEqual([]);
  });
});
