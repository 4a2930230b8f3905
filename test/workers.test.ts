/**
 * Every core: the built service with WORKERS=2 serves one port from two worker processes,
 * reports the whole service in /metrics, keeps answering right from each worker's own caches,
 * and stops all of them on SIGTERM; without Redis, a purge asked of one worker reaches the other
 * through the primary.
 */
import { once } from 'node:events';
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { startBuiltServer } from './support/built-server.js';
import { freePort } from './support/redis-server.js';

describe('WORKERS=2', () => {
  it('serves one port from two workers, /metrics totals every request, SIGTERM stops them all', async () => {
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
      for (let i = 0; i < 40 && !server.stdout().includes('"url":"/zjxz/detail?id=1"'); i++) await new Promise((r) => setTimeout(r, 25));
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
      // Both workers hold the item now.
      expect(new Set(await titles(`/api/news/${item.id}`, 10))).toEqual(new Set([item.title]));

      const title = `新的标题 ${Date.now()}`;
      const edit = await fetch(`http://127.0.0.1:${contentPort}/admin/items/news/${item.id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title }),
      });
      expect(edit.status).toBe(200);
      const { webhooks } = (await edit.json()) as { webhooks: { url: string; status: number }[] };
      expect(webhooks).toEqual([expect.objectContaining({ url: `${server.url}/admin/webhook`, status: 200 })]);
      await new Promise((r) => setTimeout(r, 100));
      expect(new Set(await titles(`/api/news/${item.id}`, 10))).toEqual(new Set([title]));
      await fresh.close();
    } finally {
      server.kill();
    }
  });
});
