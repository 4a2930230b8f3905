/**
 * Every core: the built service with WORKERS=2 serves one port from two worker processes,
 * reports the whole service in /metrics, and stops all of them on SIGTERM. Without Redis the
 * workers of one machine tell one truth through their primary: any worker serves what another
 * fetched (fresh or, with the content API down, stale), concurrent misses make one upstream
 * call and spend one point of the client's budget, /readyz says the same whichever worker
 * answers, and a purge asked of one worker reaches the other.
 */
import diagnostics from 'node:diagnostics_channel';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '../shared/site/route-table.js';
import { API_PATHS, type ApiName } from '../shared/contract/api-paths.js';
import { startBuiltServer, type BuiltServer } from './support/built-server.js';
import { deferred } from './support/deferred.js';
import { freePort } from './support/redis-server.js';
import { sampleApiPath, sampleUrl } from './support/sample-urls.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

/** Each request on a connection of its own, so that the primary hands them to the workers in turn. */
const oneShot = () => new Agent({ pipelining: 0, keepAliveTimeout: 1 });

/** The process ids whose request lines say they answered `url`. */
function answeredBy(server: BuiltServer, url: string): Set<number> {
  const lines = server
    .stdout()
    .split('\n')
    .filter((l) => l.includes('"msg":"request"'))
    .map((l) => JSON.parse(l) as { pid: number; url: string });
  return new Set(lines.filter((l) => l.url === url).map((l) => l.pid));
}

describe('WORKERS=2', () => {
  // 120 requests to two cold workers, each building its search index: longer than a test's default on a busy machine.
  it('serves one port from two workers, /metrics totals every request, SIGTERM stops them all', { timeout: 90_000 }, async () => {
    const server = await startBuiltServer({ UPSTREAM_URL: '', NODE_ENV: 'production', WORKERS: '2' });
    try {
      // Each request on a connection of its own, so that the primary hands them to both workers.
      const fresh = new Agent({ pipelining: 0, keepAliveTimeout: 1 });
      const paths = ['/api/banner', '/api/news?categoryId=19', '/', '/zjxz/detail?id=1'];
      const sent = 120;
      const statuses: number[] = [];
      for (let i = 0; i < sent; i++) {
        const res = await request(`${server.url}${paths[i % paths.length]}`, { dispatcher: fresh, headers: { connection: 'close' } });
        await res.body.arrayBuffer();
        statuses.push(res.statusCode);
      }
      await fresh.close();
      expect(statuses).toEqual(Array(sent).fill(200));

      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      const counted = [...metrics.matchAll(/^http_requests_total\{route="([^"]+)",method="GET",status="200"\} (\d+)$/gm)]
        .filter((m) => m[1] !== 'metrics')
        .reduce((sum, m) => sum + Number(m[2]), 0);
      expect(counted).toBe(sent);

      // Written by both workers: their request lines carry two process ids.
      await expect.poll(() => server.stdout(), { timeout: 5_000, message: 'the last request line' }).toContain('"url":"/zjxz/detail?id=1"');
      const lines = server
        .stdout()
        .split('\n')
        .filter((l) => l.includes('"msg":"request"'))
        .map((l) => JSON.parse(l) as { pid: number });
      expect(new Set(lines.map((l) => l.pid)).size).toBe(2);
      expect(server.stdout().match(/"msg":"worker listening"/g)).toHaveLength(2);

      server.child.kill('SIGTERM');
      const [code] = await once(server.child, 'exit');
      expect(code).toBe(0);
      expect(server.stdout().match(/"msg":"stopped"/g)).toHaveLength(3);
      expect(server.stderr()).toBe('');
    } finally {
      server.kill();
    }
  });
});

describe('WORKERS=2 with the embedded content API and no Redis', () => {
  it('an edit in the embedded content API reaches every worker: its publish event to one is passed on to the other', async () => {
    const contentPort = await freePort();
    const secret = 'workers-test-webhook-secret';
    const server = await startBuiltServer({
      UPSTREAM_URL: '',
      NODE_ENV: 'production',
      WORKERS: '2',
      WEBHOOK_SECRET: secret,
      EMBEDDED_API_PORT: String(contentPort),
    });
    try {
      const fresh = new Agent({ pipelining: 0, keepAliveTimeout: 1 });
      const titles = async (path: string, times: number) => {
        const seen: string[] = [];
        for (let i = 0; i < times; i++) {
          const res = await request(`${server.url}${path}`, { dispatcher: fresh, headers: { connection: 'close' } });
          const body = (await res.body.json()) as { data: { title: string } };
          seen.push(body.data.title);
        }
        return seen;
      };
      const list = (await (await fetch(`${server.url}/api/news?categoryId=19`)).json()) as {
        data: { items: { id: number; title: string }[] };
      };
      const item = list.data.items[0]!;
      const path = `/api/news/${item.id}`;
      expect(new Set(await titles(path, 10))).toEqual(new Set([item.title]));
      // Both workers hold the item now: each has answered it (its request lines are written within 100 ms).
      await expect.poll(() => answeredBy(server, path).size, { timeout: 5_000, message: 'both workers to have served the item' }).toBe(2);

      const title = `新的标题 ${Date.now()}`;
      const edit = await fetch(`http://127.0.0.1:${contentPort}/admin/items/news/${item.id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title }),
      });
      expect(edit.status).toBe(200);
      const { webhooks } = (await edit.json()) as { webhooks: { url: string; status: number }[] };
      expect(webhooks).toEqual([expect.objectContaining({ url: `${server.url}/admin/webhook`, status: 200 })]);
      // The event reached one worker; the other hears of it through the primary a moment later.
      await expect.poll(() => titles(path, 4), { timeout: 5_000, message: 'the edit to reach both workers' }).toEqual(Array(4).fill(title));
      expect(new Set(await titles(path, 10))).toEqual(new Set([title]));
      await fresh.close();
    } finally {
      server.kill();
    }
  });
});

describe('WORKERS=2 without Redis: one truth for the machine', () => {
  let upstream: TestUpstream;
  let server: BuiltServer;
  const apiPaths = (Object.keys(API_PATHS) as ApiName[]).map(sampleApiPath);
  const pages = Object.values(ROUTES).map((r) => sampleUrl(r.path));
  // Long enough for a busy machine's workers to read the last of a burst while its answer is fresh
  // (at 300 ms a late one found it stale and rightly called again); short enough to wait out.
  const FRESH_MS = 2_000;

  beforeAll(async () => {
    upstream = await startTestUpstream();
    // As `npm start` runs on a 2-core machine: production, two workers, no Redis, the default
    // budget of misses per client; answers fresh for a moment only, so that they go stale.
    server = await startBuiltServer({
      UPSTREAM_URL: upstream.url,
      NODE_ENV: 'production',
      WORKERS: '2',
      CACHE_MAX_AGE_MS: String(FRESH_MS),
      CACHE_STALE_WHILE_REVALIDATE_S: '0',
      UPSTREAM_BREAKER_THRESHOLD: '2',
    });
  });
  afterAll(async () => {
    server.kill();
    if (upstream.listening) await upstream.stop();
  });

  it('90 concurrent misses of one key from one address make one upstream call, and every one is answered', async () => {
    // The call is held until all 90 requests are written: concurrent however slowly a busy machine sends them.
    // Then 100 ms more for the workers to read the last of them: the service says nowhere when it has.
    const release = deferred();
    upstream.hold = release.promise;
    let written = 0;
    const onSend = ({ request: sent }: { request: { origin: string } }) => {
      if (sent.origin === server.url && ++written === 90) setTimeout(release.resolve, 100);
    };
    diagnostics.subscribe('undici:client:sendHeaders', onSend as (message: unknown) => void);
    const agent = oneShot();
    try {
      const key = '/api/news?categoryId=20&page=3&pageSize=9';
      const answers = await Promise.all(
        Array.from({ length: 90 }, () =>
          request(`${server.url}/api/news?categoryId=20&page=3`, { dispatcher: agent, headers: { connection: 'close' } }),
        ),
      );
      const bodies = await Promise.all(answers.map((r) => r.body.text()));
      expect(written).toBe(90);
      expect(answers.map((r) => r.statusCode)).toEqual(Array(90).fill(200));
      expect(new Set(bodies).size).toBe(1);
      expect(upstream.callsTo(key)).toBe(1);
      // Both workers answered (their request lines are written within 100 ms): one fetched it, the other waited for it through the primary.
      await expect
        .poll(() => answeredBy(server, '/api/news?categoryId=20&page=3').size, {
          timeout: 5_000,
          message: 'request lines from both workers',
        })
        .toBe(2);
    } finally {
      diagnostics.unsubscribe('undici:client:sendHeaders', onSend as (message: unknown) => void);
      release.resolve();
      upstream.hold = undefined;
      await agent.close();
    }
  });

  it('with the content API down after a warm-up, every warmed path and page answers 200 from every worker, and /readyz says ready from each', async () => {
    const agent = oneShot();
    const get = async (path: string) => {
      const res = await request(server.url + path, {
        dispatcher: agent,
        headers: { accept: path.startsWith('/api/') ? '*/*' : 'text/html' },
      });
      await res.body.arrayBuffer();
      return res.statusCode;
    };
    try {
      // The warm-up: each path once, on whichever worker takes it.
      for (const path of [...apiPaths, ...pages]) expect(await get(path), path).toBe(200);
      await upstream.stop();
      // A wait for real time: the answers go stale, so every one now needs the content API.
      await sleep(FRESH_MS + 100);
      for (const path of [...apiPaths, ...pages]) {
        const statuses = [];
        for (let i = 0; i < 10; i++) statuses.push(await get(path));
        expect(statuses, path).toEqual(Array(10).fill(200));
      }
      // Each path was answered by both workers (their request lines are written within 100 ms).
      await expect
        .poll(() => [...apiPaths, ...pages].filter((path) => answeredBy(server, path).size !== 2), {
          timeout: 5_000,
          message: 'request lines from both workers for every path',
        })
        .toEqual([]);
      const ready = [];
      for (let i = 0; i < 10; i++) ready.push(await get('/readyz'));
      expect(ready).toEqual(Array(10).fill(200));
    } finally {
      await agent.close();
      if (!upstream.listening) await upstream.restart();
    }
  });
});

describe('WORKERS=2 without Redis, cold, with the content API down', () => {
  it('/readyz says not ready from every worker, then ready from every one once the content API is back', async () => {
    const upstream = await startTestUpstream();
    // Down by failing every call, not by closing its port: a port given back can be taken by
    // another file's server meanwhile, whose content API would make these workers ready.
    upstream.mode = 'status-500';
    // A short cool-down: the readiness probes open the breaker while the content API is down.
    const server = await startBuiltServer({
      UPSTREAM_URL: upstream.url,
      NODE_ENV: 'production',
      WORKERS: '2',
      UPSTREAM_BREAKER_COOLDOWN_MS: '100',
    });
    const agent = oneShot();
    const readiness = async () => {
      const seen = [];
      for (let i = 0; i < 10; i++) {
        const res = await request(`${server.url}/readyz`, { dispatcher: agent, headers: { connection: 'close' } });
        seen.push(((await res.body.json()) as { status: string }).status);
      }
      return seen;
    };
    try {
      expect(await readiness()).toEqual(Array(10).fill('not ready'));
      upstream.mode = 'ok';
      await expect
        .poll(readiness, { timeout: 5_000, message: 'a worker to be ready once the breaker lets a probe through' })
        .toContain('ready');
      expect(await readiness()).toEqual(Array(10).fill('ready'));
    } finally {
      await agent.close();
      server.kill();
      await upstream.stop();
    }
  });
});
