/**
 * Partners' keys and the budgets a client can see: a request with a partner's key spends that
 * partner's budget (fleet-wide with Redis), not its address's; a wrong or malformed key is a 401
 * whatever is asked, never silently anonymous, and no key is ever written to a log; RateLimit and
 * RateLimit-Policy say where a client stands on the answers that spent a point and on every 429;
 * metrics, the request line and /status name the partner.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../server/settings/config.js';
import { metric } from './support/polling.js';
import { startRedis, type RedisServer } from './support/redis-server.js';
import { startService, type RunningService } from './support/start-service.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

const ACME = 'acme-3f9c2b71d04e8a56b1c9d2e7f0a4';
const BETA = 'beta_Zk29QmX7vLp4Rt8Wy3Hc6Nd1';
const KEYS = `acme:${ACME},beta:${BETA}`;

let upstream: TestUpstream;
beforeAll(async () => {
  upstream = await startTestUpstream();
});
afterAll(() => upstream.stop());

let next = 100;
/** A page of news no one has asked for: a call to the content API. */
const uncached = () => `/api/news?page=${next++}`;

async function get(svc: RunningService, path: string, key?: string) {
  const res = await fetch(svc.url + path, { headers: key === undefined ? {} : { 'x-api-key': key } });
  return { status: res.status, headers: res.headers, body: await res.text() };
}

describe('partner keys', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({
      UPSTREAM_URL: upstream.url,
      API_KEYS: KEYS,
      RATE_LIMIT_MISSES: '4',
      RATE_LIMIT_MISSES_PER_KEY: '5',
      RATE_LIMIT_WINDOW_S: '60',
    });
  });
  afterAll(() => svc.close());

  it('refuses a wrong or malformed key with 401 whatever is asked (a cached answer, the document), and logs no key', async () => {
    expect((await get(svc, '/api/banner')).status).toBe(200);
    const wrong = 'acme-0000000000000000000000000000';
    for (const [key, says] of [
      [wrong, 'is not a key of this service'],
      ['short', 'is malformed'],
      [`${ACME}\u00e9`, 'is malformed'],
    ] as const) {
      for (const path of ['/api/banner', '/api/openapi.json', uncached()]) {
        const res = await get(svc, path, key);
        expect(res.status, `${path} with ${key}`).toBe(401);
        expect(res.headers.get('www-authenticate')).toBe('ApiKey realm="api", header="X-API-Key"');
        expect(JSON.parse(res.body).error).toMatchObject({ code: 'unauthorized' });
        expect(JSON.parse(res.body).error.message).toContain(says);
      }
    }
    // Nothing reached the content API for the refused requests, and no key is in any log line.
    expect(upstream.totalCalls()).toBe(1);
    const logged = JSON.stringify(svc.logs);
    for (const key of [ACME, BETA, wrong]) expect(logged).not.toContain(key);
  });

  it('spends the partner’s budget, not its address’s, with RateLimit headers on the answers that spent a point and on every 429', async () => {
    // The partner: five calls, then refused; each answer says what is left.
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await get(svc, uncached(), ACME);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBe('"partner";q=5;w=60');
      remaining.push(res.headers.get('ratelimit')!.replace(/;t=\d+$/, ''));
    }
    expect(remaining).toEqual(['"partner";r=4', '"partner";r=3', '"partner";r=2', '"partner";r=1', '"partner";r=0']);
    const refused = await get(svc, uncached(), ACME);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('ratelimit-policy')).toBe('"partner";q=5;w=60');
    const [, t] = /^"partner";r=0;t=(\d+)$/.exec(refused.headers.get('ratelimit')!)!;
    expect(Number(t)).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(Number(t));
    // A cached answer spends nothing and says nothing of the budget, even to a partner that has none left.
    const cached = await get(svc, '/api/banner', ACME);
    expect(cached.status).toBe(200);
    expect(cached.headers.get('ratelimit')).toBeNull();

    // The same address without a key: its own budget of four (the banner's call in the first case spent one), untouched by the partner's.
    const anonymous = [];
    for (let i = 0; i < 4; i++) anonymous.push(await get(svc, uncached()));
    expect(anonymous.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(anonymous.map((r) => r.headers.get('ratelimit-policy'))).toEqual(Array(4).fill('"calls";q=4;w=60'));
    expect(anonymous[3]!.headers.get('ratelimit')).toMatch(/^"calls";r=0;t=\d+$/);
    // And another partner has its own.
    expect((await get(svc, uncached(), BETA)).headers.get('ratelimit')).toMatch(/^"partner";r=4;t=\d+$/);
  });

  it('names the partner in metrics, in its request lines and on /status', async () => {
    expect(await metric(svc, 'partner_requests_total{partner="acme"}')).toBeGreaterThanOrEqual(7);
    expect(await metric(svc, 'partner_calls_total{partner="acme"}')).toBe(6);
    expect(await metric(svc, 'partner_rate_limited_total{partner="acme"}')).toBe(1);
    expect(await metric(svc, 'partner_calls_total{partner="beta"}')).toBe(1);
    await expect
      .poll(() => svc.logs, { timeout: 5_000, message: 'a request line naming the partner' })
      .toContainEqual(expect.objectContaining({ msg: 'request', partner: 'beta' }));
    const html = await (await fetch(`${svc.url}/status`)).text();
    const section = /<h2>Partners<\/h2>(.*?)<\/section>/.exec(html)![1]!;
    const rows = [...section.matchAll(/<tr><td>([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td><\/tr>/g)].map((m) =>
      m.slice(1),
    );
    expect(rows[0]).toEqual(['acme', expect.stringMatching(/^\d+$/), '6', '1']);
    expect(rows[1]).toEqual(['beta', '1', '1', '0']);
  });
});

describe('partner budgets in a fleet', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.stop());

  it('are the fleet’s: a partner calling two instances sharing Redis has one budget', async () => {
    const env = {
      UPSTREAM_URL: upstream.url,
      REDIS_URL: redis.url,
      REDIS_TIMEOUT_MS: '1000',
      API_KEYS: KEYS,
      RATE_LIMIT_MISSES_PER_KEY: '4',
      RATE_LIMIT_WINDOW_S: '60',
    };
    const [a, b] = [await startService(env), await startService(env)];
    try {
      for (const svc of [a, b])
        await expect.poll(() => metric(svc, 'redis_up'), { timeout: 5_000, message: 'the instance to connect to Redis' }).toBe(1);
      const statuses = [];
      for (let i = 0; i < 6; i++) statuses.push((await get(i % 2 ? a : b, uncached(), BETA)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('API_KEYS and API_KEYS_FILE', () => {
  it('are read and checked at start: a bad name, a short key, a name or key given twice, an unreadable file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'keys-'));
    try {
      const file = join(dir, 'keys');
      await writeFile(file, `# partners\nbeta:${BETA}\n\n`);
      expect(loadConfig({ API_KEYS: `acme:${ACME}`, API_KEYS_FILE: file }).API_KEYS).toEqual([
        { name: 'acme', key: ACME },
        { name: 'beta', key: BETA },
      ]);
      expect(() => loadConfig({ API_KEYS: `Acme:${ACME}` })).toThrow(/API_KEYS, entry 1: the partner's name/);
      expect(() => loadConfig({ API_KEYS: 'acme:tooshort' })).toThrow(/API_KEYS, entry 1 \(acme\): the key/);
      expect(() => loadConfig({ API_KEYS: `acme:${ACME}`, API_KEYS_FILE: join(dir, 'none') })).toThrow(
        /API_KEYS_FILE: cannot be read \(ENOENT\)/,
      );
      expect(() => loadConfig({ API_KEYS: `beta:${ACME}`, API_KEYS_FILE: file })).toThrow(/the name of partner beta is given twice/);
      expect(() => loadConfig({ API_KEYS: `acme:${BETA}`, API_KEYS_FILE: file })).toThrow(/the key of partner beta is given twice/);
      expect(() => loadConfig({ API_KEYS: `acme:${ACME}` })).not.toThrow();
      expect(() => loadConfig({ API_KEYS: 'acme' })).toThrow(ConfigError);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
