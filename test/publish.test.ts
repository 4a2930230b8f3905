/**
 * Publishing, end to end, against real parts: two service instances sharing a real redis-server,
 * a real varnishd with the shipped VCL in front of one of them, and the embedded content API
 * with editing on. An edit in the content API sends its signed publish event to one instance;
 * within a second both instances and the edge serve the change on its API path, its detail page
 * and the list that shows it. Every refused purge or event changes nothing. The edge keeps one
 * copy of a page per variant, whatever marketing parameters the address carries.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { categoryHref, contentHref } from '../shared/site/href.js';
import { SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER } from '../server/admin/publish-events.js';
import { startEmbeddedApi, type EmbeddedApi } from '../server/embedded-api/embedded-api.js';
import { freePort, startRedis, type RedisServer } from './support/redis-server.js';
import { startService, type RunningService } from './support/start-service.js';
import { startVarnish, type Varnish } from './support/varnish.js';
import { startMediaOrigin, type MediaOrigin } from './support/media-origin.js';
import { cameraJpeg, versionOf } from './support/media-fixtures.js';
import type { MediaImage } from '../shared/contract/entities.js';
import { metric } from './support/polling.js';

const SECRET = 'publish-test-webhook-secret';
const TOKEN = 'publish-test-purge-token';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';

let redis: RedisServer;
let content: EmbeddedApi;
let a: RunningService;
let b: RunningService;
let edge: Varnish;
let photos: MediaOrigin;

beforeAll(async () => {
  redis = await startRedis();
  photos = await startMediaOrigin();
  const edgePort = await freePort();
  // The content API sends its publish events to instance b.
  content = await startEmbeddedApi({ publishing: { secret: SECRET, webhooks: () => [`${b.url}/admin/webhook`] } });
  const env = {
    UPSTREAM_URL: content.url,
    REDIS_URL: redis.url,
    // A generous Redis budget: the two instances, Varnish and Redis share a machine that may be busy
    // with other work, and a call past its budget goes on without Redis (what these cases are not about).
    REDIS_TIMEOUT_MS: '1000',
    PURGE_TOKEN: TOKEN,
    WEBHOOK_SECRET: SECRET,
    EDGE_PURGE_URLS: `http://127.0.0.1:${edgePort}/`,
    TRUSTED_PROXIES: '127.0.0.1',
    MEDIA_ORIGINS: photos.url,
  };
  [a, b] = await Promise.all([startService(env), startService(env)]);
  for (const svc of [a, b])
    await vi.waitFor(async () => expect(await metric(svc, 'redis_up')).toBe(1), {
      timeout: 5_000,
      message: 'the instance to connect to Redis',
    });
  edge = await startVarnish(Number(new URL(a.url).port), edgePort);
}, 30_000);

afterAll(async () => {
  await edge?.stop();
  await Promise.all([a?.close(), b?.close()]);
  await content?.close();
  await redis?.stop();
  await photos?.stop();
});

describe('publish: the content API changes an item and sends its event to one instance', () => {
  // How fast (under a second, p99 over 100 publishes) is bench/edge.ts's to measure; here, that it arrives everywhere.
  it('both instances and the edge serve the change on its API path, its detail page and its list', async () => {
    const list = (await (await fetch(`${a.url}/api/news?categoryId=19`)).json()) as {
      data: { items: { id: number; categoryId: number; title: string }[] };
    };
    const item = list.data.items[0]!;
    const paths = [`/api/news/${item.id}`, contentHref(item), categoryHref(19)!];
    const places = [a.url, b.url, edge.url];
    // Every cache holds the old item: each instance's proxy and page caches, Redis, the edge.
    // A page is kept only once the data it shows is settled: asked again until it is a hit.
    for (const base of places) {
      for (const path of paths) {
        const hit = async () => {
          const res = await fetch(base + path);
          expect(await res.text(), `${base}${path}`).toContain(item.title);
          return res.headers.get(base === edge.url ? 'x-edge' : 'x-cache');
        };
        await expect.poll(hit, { message: `${base}${path} kept`, timeout: 10_000 }).toBe('HIT');
      }
    }

    const title = `集团新闻更新：${Date.now()}`;
    const edit = await fetch(`${content.url}/admin/items/news/${item.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
    });
    expect(edit.status).toBe(200);
    const edited = (await edit.json()) as { webhooks: { status: number }[] };
    expect(edited.webhooks.map((w) => w.status)).toEqual([200]);

    const addresses = places.flatMap((base) => paths.map((path) => base + path));
    const seen = new Set<string>();
    await vi.waitFor(
      async () => {
        await Promise.all(
          addresses.map(async (address) => {
            if (seen.has(address)) return;
            const text = await (await fetch(address)).text();
            if (text.includes(title)) seen.add(address);
          }),
        );
        expect(addresses.filter((address) => !seen.has(address))).toEqual([]);
      },
      { timeout: 10_000, message: 'every instance and the edge to show the change' },
    );
    // It stays: no cache refilled itself with the old item meanwhile.
    for (const base of places) for (const path of paths) expect(await (await fetch(base + path)).text()).toContain(title);
    expect(await metric(b, 'purges_total{source="webhook"}')).toBeGreaterThanOrEqual(1);
    expect(b.logs.some((l) => l.msg === 'purge' && l.source === 'webhook' && l.event === 'update')).toBe(true);
  });

  it("a publish of an item whose picture's bytes changed under the same address shows the new picture everywhere", async () => {
    const list = (await (await fetch(`${a.url}/api/news?categoryId=20`)).json()) as { data: { items: { id: number }[] } };
    const id = list.data.items[0]!.id;
    const address = `${photos.url}/uploads/2026/11/Cover-01.JPG`;
    const [before, after] = await Promise.all([cameraJpeg(2400, 1500, 1), cameraJpeg(2400, 1500, 2)]);
    photos.files.set('/uploads/2026/11/Cover-01.JPG', { body: before, contentType: 'image/jpeg' });
    const places = [a.url, b.url, edge.url];
    const publish = async () => {
      const edit = await fetch(`${content.url}/admin/items/news/${id}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
        body: JSON.stringify({ cover: address }),
      });
      expect(edit.status).toBe(200);
    };
    const coverAt = async (base: string) =>
      ((await (await fetch(`${base}/api/news/${id}`)).json()) as { data: { cover?: MediaImage } }).data.cover;
    // Everyone shows the picture at its first version, its variant cached at the edge.
    await publish();
    await expect
      .poll(async () => (await Promise.all(places.map(coverAt))).map((c) => c?.version), {
        timeout: 20_000,
        message: 'the first version everywhere',
      })
      .toEqual(places.map(() => versionOf(before)));
    const first = (await coverAt(edge.url))!;
    for (let i = 0; i < 2; i++) await fetch(edge.url + first.src, { headers: { accept: 'image/jpeg' } });

    // The editor replaces the file under the same address, and publishes the item.
    photos.files.set('/uploads/2026/11/Cover-01.JPG', { body: after, contentType: 'image/jpeg' });
    await publish();
    // Each instance fetches the camera-sized original again and describes it (hashes and decodes it),
    // on two cores other suites keep busy: 5 s once ran out.
    await expect
      .poll(async () => (await Promise.all(places.map(coverAt))).map((c) => c?.version), {
        timeout: 20_000,
        message: 'the new version in every answer',
      })
      .toEqual(places.map(() => versionOf(after)));
    const page = contentHref({ id, categoryId: 20 });
    for (const base of places) expect(await (await fetch(base + page)).text(), base).toContain(`/_media/1080/${versionOf(after)}/`);
    const served = await fetch(edge.url + (await coverAt(edge.url))!.src, { headers: { accept: 'image/jpeg' } });
    expect(served.status).toBe(200);
    const old = await fetch(edge.url + first.src, { headers: { accept: 'image/jpeg' } });
    expect(Buffer.from(await served.arrayBuffer()).equals(Buffer.from(await old.arrayBuffer()))).toBe(false);
  });

  it('a purge by path, by tag or of everything lets go of it in both instances and at the edge', async () => {
    for (const base of [a.url, b.url, edge.url]) for (let i = 0; i < 2; i++) await fetch(`${base}/api/banner`);
    const purge = async (body: unknown) => {
      const res = await fetch(`${a.url}/admin/purge`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, JSON.stringify(body)).toBe(200);
      return (await res.json()) as { purged: { tags: string[] }; fleet: boolean; shared: number };
    };
    const byPath = await purge({ paths: ['/api/banner'] });
    expect(byPath.purged.tags).toEqual(['url:/api/banner']);
    expect(byPath.fleet).toBe(true);
    expect(byPath.shared).toBeGreaterThanOrEqual(1);
    // Each look is three requests that fetch anew: the timeout covers one on a loaded machine.
    const misses = async () => {
      const [x, y, z] = await Promise.all([a, b].map((s) => fetch(`${s.url}/api/banner`)).concat(fetch(`${edge.url}/api/banner`)));
      expect(x!.headers.get('x-cache')).not.toBe('HIT');
      expect(y!.headers.get('x-cache')).not.toBe('HIT');
      expect(z!.headers.get('x-edge')).toBe('MISS');
    };
    await vi.waitFor(misses, { timeout: 5_000, message: 'the purged answer to be fetched anew everywhere' });
    await purge({ tags: ['/api/banner'] });
    await vi.waitFor(misses, { timeout: 5_000, message: 'the purged tag to be fetched anew everywhere' });
    await purge({ all: true });
    await vi.waitFor(misses, { timeout: 5_000, message: 'everything to be fetched anew' });
  });
});

describe('refused: nothing is purged', () => {
  const post = (base: string, path: string, body: string, headers: Record<string, string>) =>
    fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const signed = (body: string, timestamp = Math.floor(Date.now() / 1000), secret = SECRET) => ({
    [TIMESTAMP_HEADER]: String(timestamp),
    [SIGNATURE_HEADER]: signWebhook(secret, timestamp, body),
  });

  it('a wrong or missing token, a forged, old or replayed event, an oversized or malformed body', async () => {
    const banner = async (svc: RunningService) => (await fetch(`${svc.url}/api/banner`)).headers.get('x-cache');
    for (const svc of [a, b]) await expect.poll(() => banner(svc), { timeout: 5_000, message: 'the banner to be cached' }).toBe('HIT');
    const before = [await metric(a, 'purges_total{source="api"}'), await metric(a, 'purges_total{source="webhook"}')];
    const purgeLines = (svc: RunningService) => svc.logs.filter((l) => l.msg === 'purge').length;
    const linesBefore = purgeLines(a);

    const all = JSON.stringify({ all: true });
    const event = JSON.stringify({ id: `refusals-${Date.now()}`, event: 'publish', items: [{ type: 'banner' }] });
    const unknownType = '{"id":"e1","event":"publish","items":[{"type":"x"}]}';
    const noId = '{"event":"publish","items":[{"type":"banner"}]}';
    const refusals: [string, Promise<Response>, number, RegExp][] = [
      ['no token', post(a.url, '/admin/purge', all, {}), 401, /bearer token/],
      ['a wrong token', post(a.url, '/admin/purge', all, { authorization: 'Bearer not-the-purge-token' }), 401, /bearer token/],
      ['another scheme', post(a.url, '/admin/purge', all, { authorization: `Basic ${TOKEN}` }), 401, /bearer token/],
      ['a body that is no JSON', post(a.url, '/admin/purge', '{"all":', { authorization: `Bearer ${TOKEN}` }), 400, /JSON/],
      [
        'two kinds at once',
        post(a.url, '/admin/purge', '{"all":true,"tags":["x"]}', { authorization: `Bearer ${TOKEN}` }),
        400,
        /exactly one of/,
      ],
      ['a tag with a space', post(a.url, '/admin/purge', '{"tags":["a b"]}', { authorization: `Bearer ${TOKEN}` }), 400, /tags\.0/],
      ['a path of no page', post(a.url, '/admin/purge', '{"paths":["/nowhere"]}', { authorization: `Bearer ${TOKEN}` }), 400, /not a page/],
      [
        'a bad API path',
        post(a.url, '/admin/purge', '{"paths":["/api/news/abc"]}', { authorization: `Bearer ${TOKEN}` }),
        400,
        /api\/news\/abc/,
      ],
      [
        'an oversized purge',
        post(a.url, '/admin/purge', JSON.stringify({ tags: ['x'.repeat(17_000)] }), { authorization: `Bearer ${TOKEN}` }),
        413,
        /over/,
      ],
      ['an unsigned event', post(a.url, '/admin/webhook', event, {}), 401, /time in seconds/],
      ['a forged signature', post(a.url, '/admin/webhook', event, signed(event, undefined, 'someone-elses-secret')), 401, /signature/],
      ['an old event', post(a.url, '/admin/webhook', event, signed(event, Math.floor(Date.now() / 1000) - 600)), 401, /too old/],
      ['an oversized event', post(a.url, '/admin/webhook', ' '.repeat(17_000), signed(' '.repeat(17_000))), 413, /over/],
      ['an event that is no JSON', post(a.url, '/admin/webhook', '{"event"', signed('{"event"')), 400, /JSON/],
      ['an unknown item type', post(a.url, '/admin/webhook', unknownType, signed(unknownType)), 400, /items\.0\.type/],
      ['an event with no id', post(a.url, '/admin/webhook', noId, signed(noId)), 400, /^id: /],
    ];
    for (const [what, sent, status, message] of refusals) {
      const res = await sent;
      expect(res.status, what).toBe(status);
      const body = (await res.json()) as { error: { message: string } };
      expect(body.error.message, what).toMatch(message);
    }

    // The same event twice (even signed anew): to the same instance, and to the other one.
    expect((await post(b.url, '/admin/webhook', event, signed(event))).status).toBe(200);
    const again = await post(b.url, '/admin/webhook', event, signed(event));
    expect(again.status).toBe(401);
    expect(((await again.json()) as { error: { message: string } }).error.message).toMatch(/replay/);
    expect((await post(a.url, '/admin/webhook', event, signed(event))).status).toBe(401);
    // Another event with the same content in the same second is no replay: content may change twice.
    const next = event.replace('refusals-', 'refusals-next-');
    expect((await post(b.url, '/admin/webhook', next, signed(next))).status).toBe(200);

    // Only the one genuine event (sent to b) purged anything: nothing was purged, logged or counted by a.
    expect([await metric(a, 'purges_total{source="api"}'), await metric(a, 'purges_total{source="webhook"}')]).toEqual(before);
    expect(purgeLines(a)).toBe(linesBefore);
  });

  it('without PURGE_TOKEN and WEBHOOK_SECRET both doors are off (404)', async () => {
    const plain = await startService({ UPSTREAM_URL: content.url });
    try {
      expect((await post(plain.url, '/admin/purge', '{"all":true}', { authorization: `Bearer ${TOKEN}` })).status).toBe(404);
      expect((await post(plain.url, '/admin/webhook', '{}', {})).status).toBe(404);
    } finally {
      await plain.close();
    }
  });

  it('the edge refuses a purge from an address that is not the service, and serves no /metrics', async () => {
    // 127.0.0.2 is loopback too, but not the service's address.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = httpRequest(edge.url, { method: 'PURGE', headers: { 'x-purge-tags': 'all' }, localAddress: '127.0.0.2' }, (res) => {
        res.resume();
        resolve(res.statusCode);
      });
      req.once('error', reject).end();
    });
    expect(status).toBe(403);
    // Nor does it hand out what operators read.
    expect((await fetch(`${edge.url}/metrics`)).status).toBe(404);
  });
});

describe('the edge and the page cache key a page on what it reads', () => {
  it('/?utm_source=a&gclid=b is the page / : a HIT in the page cache and at the edge', async () => {
    await (await fetch(`${a.url}/`)).text();
    const direct = await fetch(`${a.url}/?utm_source=a&gclid=b`);
    expect(direct.headers.get('x-cache')).toBe('HIT');
    expect(await direct.text()).toContain('<link rel="canonical" href="http://localhost');
    await fetch(`${edge.url}/`, { headers: { 'user-agent': CHROME } });
    const viaEdge = await fetch(`${edge.url}/?utm_source=a&gclid=b&fbclid=c`, { headers: { 'user-agent': CHROME } });
    expect(viaEdge.headers.get('x-edge')).toBe('HIT');
    // A list keeps its page number and drops the rest, in any order.
    const list = categoryHref(19)!;
    await fetch(`${edge.url}${list}&page=2`, { headers: { 'user-agent': CHROME } });
    const reordered = await fetch(`${edge.url}${list.replace('?', '?utm_campaign=x&page=2&')}`, { headers: { 'user-agent': CHROME } });
    expect(reordered.headers.get('x-edge')).toBe('HIT');
  });

  it('a Firefox and a Chrome visitor each get their own scaling from the edge, and the large-text mode its own copy', async () => {
    const page = async (headers: Record<string, string>) => {
      const res = await fetch(`${edge.url}/lxwm/index`, { headers });
      return { html: await res.text(), edge: res.headers.get('x-edge'), vary: res.headers.get('vary') };
    };
    for (let i = 0; i < 2; i++) {
      const firefox = await page({ 'user-agent': FIREFOX });
      const chrome = await page({ 'user-agent': CHROME });
      const large = await page({ 'user-agent': FIREFOX, cookie: 'textsize=large' });
      expect(firefox.html).toMatch(/<html[^>]* data-scale="transform"/);
      expect(chrome.html).toMatch(/<html[^>]* data-scale="zoom"/);
      expect(large.html).toMatch(/<html[^>]* data-text="large"/);
      expect(firefox.vary).toBe('Accept-Encoding, Cookie, User-Agent');
      if (i === 1) expect([firefox.edge, chrome.edge, large.edge]).toEqual(['HIT', 'HIT', 'HIT']);
    }
  });

  it('each choice of theme and cursor has its own copy at the edge, and no visitor is given another’s', async () => {
    const visitors = [
      { ua: CHROME, cookie: 'theme=contrast', tag: '<html lang="zh-CN" data-scale="zoom" data-theme="contrast">' },
      {
        ua: CHROME,
        cookie: 'theme=plain; cursor=large',
        tag: '<html lang="zh-CN" data-scale="zoom" data-theme="plain" data-cursor="large">',
      },
      { ua: FIREFOX, cookie: 'cursor=large; other=1', tag: '<html lang="zh-CN" data-scale="transform" data-cursor="large">' },
      {
        ua: FIREFOX,
        cookie: 'textsize=large; theme=contrast; cursor=large',
        tag: '<html lang="zh-CN" data-scale="zoom" data-text="large" data-theme="contrast" data-cursor="large">',
      },
      { ua: CHROME, cookie: 'theme=dark', tag: '<html lang="zh-CN" data-scale="zoom">' },
    ];
    for (let i = 0; i < 2; i++) {
      for (const { ua, cookie, tag } of visitors) {
        const res = await fetch(`${edge.url}/jtjj/fzlc`, { headers: { 'user-agent': ua, cookie } });
        expect(/<html[^>]*>/.exec(await res.text())?.[0], cookie).toBe(tag);
        if (i === 1) expect(res.headers.get('x-edge'), cookie).toBe('HIT');
      }
    }
  });
});
