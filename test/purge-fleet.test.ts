/**
 * A purge reaches every instance even when Redis is not there at the moment it is sent: an
 * instance cut off from Redis reads the purges it missed when it is back, and a purge that could
 * not reach Redis is passed on (the shared tier included) once it can. And a purge never costs an
 * outage: with the content API down, what was purged still stands in.
 */
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmbeddedApi, type EmbeddedApi } from '../server/embedded-api/embedded-api.js';
import { startRedis, type RedisServer } from './support/redis-server.js';
import { startService, type RunningService } from './support/start-service.js';
import { startTcpProxy, type TcpProxy } from './support/tcp-proxy.js';
import { startTestUpstream } from './support/test-upstream.js';
import { metric } from './support/polling.js';

const TOKEN = 'purge-fleet-test-token';
const SECRET = 'purge-fleet-test-secret';

const purge = (svc: RunningService, body: unknown) =>
  fetch(`${svc.url}/admin/purge`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as { fleet: boolean } }));

describe('purges and Redis coming and going', () => {
  let redis: RedisServer;
  let content: EmbeddedApi;
  let a: RunningService;
  let b: RunningService;
  let aLink: TcpProxy;
  let bLink: TcpProxy;

  beforeAll(async () => {
    redis = await startRedis();
    // Edited without telling anyone: the test purges by hand.
    content = await startEmbeddedApi({ publishing: { secret: SECRET, webhooks: () => [] } });
    [aLink, bLink] = await Promise.all([startTcpProxy(redis.port), startTcpProxy(redis.port)]);
    const env = { UPSTREAM_URL: content.url, PURGE_TOKEN: TOKEN, REDIS_TIMEOUT_MS: '200' };
    a = await startService({ ...env, REDIS_URL: `redis://127.0.0.1:${aLink.port}` });
    b = await startService({ ...env, REDIS_URL: `redis://127.0.0.1:${bLink.port}` });
    for (const svc of [a, b])
      await vi.waitFor(async () => expect(await metric(svc, 'redis_up')).toBe(1), {
        timeout: 5_000,
        message: 'the instance to connect to Redis',
      });
  }, 30_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await Promise.all([aLink?.close(), bLink?.close()]);
    await content?.close();
    await redis?.stop();
  });

  /** Changes an expert's name in the content API, and returns a reader of what an instance shows. */
  async function edit(id: number, name: string) {
    const res = await fetch(`${content.url}/admin/items/expert/${id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    });
    expect(res.status).toBe(200);
  }
  const nameAt = async (svc: RunningService, id: number) =>
    ((await (await fetch(`${svc.url}/api/experts/${id}`)).json()) as { data: { name: string } }).data.name;

  it('an instance cut off from Redis while a purge went out reads it when it is back', async () => {
    const old = await nameAt(a, 1);
    expect(await nameAt(b, 1)).toBe(old);
    await aLink.cut();
    await expect.poll(() => metric(a, 'redis_up'), { timeout: 5_000, message: 'a to see Redis go' }).toBe(0);
    await edit(1, '林新名');
    expect((await purge(b, { tags: ['expert:1'] })).body.fleet).toBe(true);
    expect(await nameAt(b, 1)).toBe('林新名');
    // a missed the message and still has the old answer, fresh.
    expect(await nameAt(a, 1)).toBe(old);
    await aLink.restore();
    await expect.poll(() => nameAt(a, 1), { timeout: 5_000, message: 'a to apply the purge it missed' }).toBe('林新名');
  });

  it('a purge sent while its instance could not reach Redis reaches the fleet, and the shared tier, when it can', async () => {
    const old = await nameAt(b, 2);
    expect(await nameAt(a, 2)).toBe(old);
    await bLink.cut();
    await expect.poll(() => metric(b, 'redis_up'), { timeout: 5_000, message: 'b to see Redis go' }).toBe(0);
    await edit(2, '周新名');
    const sent = await purge(b, { paths: ['/api/experts/2'] });
    expect(sent.status).toBe(200);
    expect(sent.body.fleet).toBe(false);
    expect(await nameAt(b, 2)).toBe('周新名');
    expect(await nameAt(a, 2)).toBe(old);
    expect(b.logs.some((l) => l.msg === 'purge not passed on to the fleet yet (Redis is away): it will be when Redis is back')).toBe(true);
    await bLink.restore();
    // a refetches, and does not take the old answer from the shared tier.
    await expect.poll(() => nameAt(a, 2), { timeout: 5_000, message: 'the kept purge to reach a' }).toBe('周新名');
    expect(b.logs.some((l) => l.msg === 'the purges kept while Redis was away have reached the fleet')).toBe(true);
  });
});

describe('a purge while the content API is down', () => {
  it('marks stale and does not drop: the last good answer and page still stand in', async () => {
    const upstream = await startTestUpstream();
    const svc = await startService({ UPSTREAM_URL: upstream.url, PURGE_TOKEN: TOKEN });
    try {
      expect((await fetch(`${svc.url}/api/banner`)).status).toBe(200);
      expect((await fetch(`${svc.url}/`)).status).toBe(200);
      await upstream.stop();
      expect((await purge(svc, { all: true })).status).toBe(200);
      const api = await fetch(`${svc.url}/api/banner`);
      expect(api.status).toBe(200);
      expect(api.headers.get('x-cache')).toBe('STALE');
      // Stale, an edge may not keep it as fresh.
      expect(api.headers.get('cache-control')).toMatch(/s-maxage=0,/);
      const page = await fetch(`${svc.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('明瞳');
    } finally {
      await svc.close();
      await upstream.stop();
    }
  });
});

describe('right after a purge', () => {
  it('every request that comes after it, API or page, shows what was published', async () => {
    const secret = 'purge-next-request-secret';
    const content = await startEmbeddedApi({ publishing: { secret, webhooks: () => [] } });
    const svc = await startService({ UPSTREAM_URL: content.url, PURGE_TOKEN: TOKEN });
    const pool = new Pool(svc.url, { connections: 4 });
    try {
      const list = ((await (await fetch(`${svc.url}/api/news?categoryId=19`)).json()) as { data: { items: { id: number }[] } }).data.items;
      for (let i = 0; i < 10; i++) {
        const { id } = list[i % list.length]!;
        const paths = [`/api/news/${id}`, `/gnyy/detail?id=${id}`];
        const title = `更新 ${i}`;
        // Visitors ask without pause, before, during and after the purge.
        let purgedAt = Infinity;
        let stop = false;
        const late: string[] = [];
        let before = 0;
        let after = 0;
        const visitors = paths.map(async (path) => {
          while (!stop) {
            const sent = performance.now();
            const res = await pool.request({ path, method: 'GET', headers: { accept: 'text/html' } });
            const text = await res.body.text();
            if (sent > purgedAt && !text.includes(title)) late.push(`${path} +${(sent - purgedAt).toFixed(1)} ms`);
            if (sent > purgedAt) after++;
            else before++;
          }
        });
        await expect
          .poll(() => before, { timeout: 5_000, message: 'visitors to be answered before the publish' })
          .toBeGreaterThanOrEqual(2 * paths.length);
        const edited = await fetch(`${content.url}/admin/items/news/${id}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${secret}` },
          body: JSON.stringify({ title }),
        });
        expect(edited.status).toBe(200);
        expect((await purge(svc, { tags: [`news:${id}`] })).status).toBe(200);
        purgedAt = performance.now();
        await expect
          .poll(() => after, { timeout: 5_000, message: 'visitors to be answered after the purge' })
          .toBeGreaterThanOrEqual(2 * paths.length);
        stop = true;
        await Promise.all(visitors);
        expect(late, `publish ${i}`).toEqual([]);
      }
    } finally {
      await pool.close();
      await svc.close();
      await content.close();
    }
  });
});
