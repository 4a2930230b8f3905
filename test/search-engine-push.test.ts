/**
 * A publish tells search engines, against loopback stubs of IndexNow and Baidu's link push: the
 * embedded content API changes an item and sends its signed publish event to the real service,
 * which answers it at once and then sends each engine, in one batch, the absolute addresses (on
 * PUBLIC_ORIGIN) of the pages the event changed, once. The key file is served where IndexNow
 * looks for it; a batch is retried with back-off on 429 or 5xx, and a failure is logged once; both
 * are off unless configured.
 */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { categoryHref, contentHref, expertHref, hospitalHref, href } from '../shared/site/href.js';
import { SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER, type PublishEvent } from '../server/admin/publish-events.js';
import { ConfigError, loadConfig } from '../server/settings/config.js';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import { PushQueue } from '../server/seo/push-queue.js';
import { baiduPush, indexNow } from '../server/seo/search-engines.js';
import { startEngineStub, type EngineStub } from './support/engine-stub.js';
import { startService, type RunningService } from './support/start-service.js';

const SECRET = 'search-engine-webhook-secret';
const ORIGIN = 'https://www.mingtong-eye.example';
const KEY = 'a1b2c3d4e5f6a7b8c9d0';
const TOKEN = 'edk7yc4rEZP9pDQD';

const told = (svc: RunningService) => svc.logs.filter((l) => l.msg === 'search engine told of the changed pages');
const indexNowUrls = (stub: EngineStub, n: number) => (JSON.parse(stub.received[n]!.body) as { urlList: string[] }).urlList;
const baiduUrls = (stub: EngineStub, n: number) => stub.received[n]!.body.split('\n');

function sendEvent(svc: RunningService, event: PublishEvent): request.Test {
  const body = JSON.stringify(event);
  const timestamp = String(Math.floor(Date.now() / 1000));
  return request(svc.url)
    .post('/admin/webhook')
    .set('content-type', 'application/json')
    .set(TIMESTAMP_HEADER, timestamp)
    .set(SIGNATURE_HEADER, signWebhook(SECRET, timestamp, body))
    .send(body);
}

describe('a publish tells IndexNow and Baidu', () => {
  let indexnow: EngineStub;
  let baidu: EngineStub;
  let svc: RunningService;
  beforeAll(async () => {
    indexnow = await startEngineStub();
    baidu = await startEngineStub('{"remain":99998,"success":5,"not_same_site":[],"not_valid":[]}');
    svc = await startService({
      WEBHOOK_SECRET: SECRET,
      PUBLIC_ORIGIN: ORIGIN,
      INDEXNOW_KEY: KEY,
      INDEXNOW_ENDPOINT: `${indexnow.url}/indexnow`,
      BAIDU_PUSH_TOKEN: TOKEN,
      BAIDU_PUSH_ENDPOINT: `${baidu.url}/urls`,
    });
  });
  afterAll(async () => {
    await svc?.close();
    await indexnow?.stop();
    await baidu?.stop();
  });

  it('serves the IndexNow key file at the root', async () => {
    const res = await request(svc.url).get(`/${KEY}.txt`).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.text).toBe(KEY);
  });

  it("an edit in the content API sends each engine the changed pages' addresses once, after the event was answered", async () => {
    const item = demoContent.contentItems.find((i) => i.categoryId === 20)!;
    const edit = await fetch(`${svc.service.upstreamUrl}/admin/items/news/${item.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: '医院新闻：更新后的标题' }),
    });
    const edited = (await edit.json()) as { webhooks: { status: number }[] };
    expect(edited.webhooks.map((w) => w.status)).toEqual([200]);

    await expect.poll(() => told(svc), { timeout: 10_000, message: 'both engines to be told' }).toHaveLength(2);
    // The event was answered before any engine was told: its request line comes first.
    const answered = svc.logs.findIndex((l) => l.msg === 'request' && l.url === '/admin/webhook' && l.status === 200);
    expect(answered).toBeGreaterThanOrEqual(0);
    expect(answered).toBeLessThan(svc.logs.indexOf(told(svc)[0]!));
    const expected = [contentHref(item), categoryHref(20)!, href('home'), href('domesticHospitals')].map((p) => ORIGIN + p).sort();

    expect(indexnow.received).toHaveLength(1);
    const submission = indexnow.received[0]!;
    expect(submission.path).toBe('/indexnow');
    expect(submission.contentType).toBe('application/json; charset=utf-8');
    const json = JSON.parse(submission.body) as Record<string, unknown>;
    expect(json).toEqual({ host: 'www.mingtong-eye.example', key: KEY, keyLocation: `${ORIGIN}/${KEY}.txt`, urlList: expect.any(Array) });
    expect(indexNowUrls(indexnow, 0).sort()).toEqual(expected);

    expect(baidu.received).toHaveLength(1);
    const push = baidu.received[0]!;
    expect(push.path).toBe('/urls');
    expect(Object.fromEntries(push.query)).toEqual({ site: ORIGIN, token: TOKEN });
    expect(push.contentType).toBe('text/plain; charset=utf-8');
    expect(baiduUrls(baidu, 0).sort()).toEqual(expected);
  });

  it('each event is sent on its own, and nothing is sent twice', async () => {
    const before = indexnow.received.length;
    const expert = demoContent.experts[2]!;
    await sendEvent(svc, {
      id: 'publish-expert-and-banner',
      event: 'publish',
      items: [{ type: 'expert', id: expert.id }, { type: 'banner' }],
    }).expect(200);
    await vi.waitFor(
      () => {
        expect(indexnow.received).toHaveLength(before + 1);
        expect(baidu.received).toHaveLength(before + 1);
      },
      { timeout: 10_000, message: 'the second batch' },
    );
    // Expert 3 works at the Beijing hospital, whose page lists its doctors.
    const hospital = demoContent.domesticHospitals.find((h) => h.name === expert.hospital)!;
    const expected = [expertHref(expert.id), href('experts'), href('home'), hospitalHref(hospital)].map((p) => ORIGIN + p).sort();
    expect(indexNowUrls(indexnow, before).sort()).toEqual(expected);
    expect(baiduUrls(baidu, before).sort()).toEqual(expected);
    // Each batch names an address once, and the first event's batch was not sent again.
    for (let n = 0; n < indexnow.received.length; n++)
      expect(new Set(indexNowUrls(indexnow, n)).size).toBe(indexNowUrls(indexnow, n).length);
    const item = demoContent.contentItems.find((i) => i.categoryId === 20)!;
    expect(indexnow.received.filter((_, n) => indexNowUrls(indexnow, n).includes(ORIGIN + contentHref(item)))).toHaveLength(1);
  });

  it("a hospital's publish is sent with every hospital's page", async () => {
    const before = indexnow.received.length;
    await sendEvent(svc, { id: 'update-hospitals', event: 'update', items: [{ type: 'hospital' }] }).expect(200);
    await expect.poll(() => indexnow.received, { timeout: 10_000, message: 'the batch of the hospitals' }).toHaveLength(before + 1);
    expect(indexNowUrls(indexnow, before).sort()).toEqual(
      [href('domesticHospitals'), href('international'), href('home'), ...demoContent.domesticHospitals.map((h) => hospitalHref(h))]
        .map((p) => ORIGIN + p)
        .sort(),
    );
  });

  it("an item of a sub-category is sent with its filtered list and its parent's list", async () => {
    const before = indexnow.received.length;
    const item = demoContent.contentItems.find((i) => i.categoryId === 22)!;
    await sendEvent(svc, { id: 'update-education-item', event: 'update', items: [{ type: 'news', id: item.id }] }).expect(200);
    await expect.poll(() => indexnow.received, { timeout: 10_000, message: 'the batch of the sub-category item' }).toHaveLength(before + 1);
    expect(indexNowUrls(indexnow, before).sort()).toEqual(
      [contentHref(item), categoryHref(22)!, categoryHref(17)!].map((p) => ORIGIN + p).sort(),
    );
  });

  it('a removed item is sent at both addresses a content item can have (both now answer 404)', async () => {
    const before = indexnow.received.length;
    await sendEvent(svc, { id: 'delete-news-999', event: 'delete', items: [{ type: 'news', id: 999 }] }).expect(200);
    await expect.poll(() => indexnow.received, { timeout: 10_000, message: 'the batch of the removal' }).toHaveLength(before + 1);
    expect(indexNowUrls(indexnow, before).sort()).toEqual([`${ORIGIN}/gnyy/detail?id=999`, `${ORIGIN}/hzhf/kpzsDetail?id=999`]);
  });

  it('a refused event tells nobody', async () => {
    const before = indexnow.received.length;
    await request(svc.url).post('/admin/webhook').set('content-type', 'application/json').send('{"id":"x"}').expect(401);
    // A later event's batch is the next one the engines get: nothing went in between.
    await sendEvent(svc, { id: 'publish-award', event: 'publish', items: [{ type: 'award' }] }).expect(200);
    await expect.poll(() => indexnow.received, { timeout: 10_000, message: 'the award batch' }).toHaveLength(before + 1);
    expect(indexNowUrls(indexnow, before)).toEqual([ORIGIN + href('awards')]);
  });
});

describe('when an engine fails', () => {
  let stub: EngineStub;
  let svc: RunningService;
  beforeAll(async () => {
    stub = await startEngineStub();
    svc = await startService({
      WEBHOOK_SECRET: SECRET,
      PUBLIC_ORIGIN: ORIGIN,
      INDEXNOW_KEY: KEY,
      INDEXNOW_ENDPOINT: `${stub.url}/indexnow`,
    });
  });
  afterAll(async () => {
    await svc?.close();
    await stub?.stop();
  });
  afterEach(() => {
    stub.script = [];
    stub.status = 200;
  });

  it('a 503 is retried after a wait, and the batch goes through', async () => {
    stub.script = [503];
    await sendEvent(svc, { id: 'retry-503', event: 'publish', items: [{ type: 'promotion' }] }).expect(200);
    await expect.poll(() => told(svc), { timeout: 10_000, message: 'the batch to go through' }).toHaveLength(1);
    expect(stub.received).toHaveLength(2);
    expect(stub.received[1]!.body).toBe(stub.received[0]!.body);
    expect(svc.logs.filter((l) => (l.level as number) >= 50)).toEqual([]);
  });

  it('a refusal (403: the key is not the site’s) is not retried, and is logged once with what was refused', async () => {
    const before = stub.received.length;
    stub.status = 403;
    await sendEvent(svc, { id: 'refused-403', event: 'publish', items: [{ type: 'contact' }] }).expect(200);
    await expect
      .poll(() => svc.logs.map((l) => l.msg), { timeout: 10_000, message: 'the refusal to be logged' })
      .toContain('search engine refused the changed pages');
    const lines = svc.logs.filter((l) => l.msg === 'search engine refused the changed pages');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ engine: 'indexnow', status: 403, urls: 1, first: ORIGIN + href('contact') });
    expect(stub.received.length - before).toBe(1);
  });
});

describe('the push queue on its own', () => {
  let stub: EngineStub;
  const logs: Record<string, unknown>[] = [];
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n')) if (line) logs.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    }),
  );
  const quick = { gatherMs: 10, retries: 2, firstRetryMs: 20, longestRetryMs: 100 };
  beforeAll(async () => {
    stub = await startEngineStub();
  });
  afterAll(() => stub?.stop());

  it('a batch that keeps failing is tried 1 + retries times, then logged once and dropped', async () => {
    stub.status = 500;
    const queue = new PushQueue(indexNow(KEY, `${stub.url}/indexnow`, ORIGIN), log, quick);
    queue.add([`${ORIGIN}/a`, `${ORIGIN}/b`]);
    await expect
      .poll(() => logs.map((l) => l.msg), { timeout: 5_000, message: 'the failure to be logged' })
      .toContain('search engine could not be told of the changed pages');
    await expect.poll(() => queue.state.sending, { timeout: 5_000, message: 'the queue to be idle' }).toBe(false);
    expect(stub.received).toHaveLength(3);
    const failures = logs.filter((l) => l.msg === 'search engine could not be told of the changed pages');
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ engine: 'indexnow', urls: 2, status: 500, retries: 2 });
    await queue.close();
  });

  it('addresses past an engine’s batch size go in several requests, one at a time, each address once', async () => {
    stub.status = 200;
    stub.received.length = 0;
    const queue = new PushQueue(baiduPush(TOKEN, `${stub.url}/urls`, 'http://www.mingtong-eye.example'), log, quick);
    const urls = Array.from({ length: 4_500 }, (_, i) => `http://www.mingtong-eye.example/zjxz/detail?id=${i + 1}`);
    queue.add(urls);
    queue.add(urls.slice(0, 10));
    await vi.waitFor(
      () => {
        expect(stub.received).toHaveLength(3);
        expect(queue.state.sending).toBe(false);
      },
      { timeout: 5_000, message: 'three batches' },
    );
    expect(stub.received.map((r) => r.body.split('\n').length)).toEqual([2_000, 2_000, 500]);
    expect(stub.received.flatMap((r) => r.body.split('\n')).sort()).toEqual([...urls].sort());
    // An http site is named by its host.
    expect(stub.received[0]!.query.get('site')).toBe('www.mingtong-eye.example');
    await queue.close();
  });

  it("Baidu's answer naming refused addresses is logged as a warning", async () => {
    stub.answer = '{"remain":10,"success":0,"not_same_site":["http://other.example/"],"not_valid":[]}';
    const queue = new PushQueue(baiduPush(TOKEN, `${stub.url}/urls`, ORIGIN), log, quick);
    queue.add(['http://other.example/']);
    await expect
      .poll(() => logs.map((l) => l.msg), { timeout: 5_000, message: 'the warning' })
      .toContain('search engine took the changed pages, with remarks');
    expect(logs.find((l) => l.msg === 'search engine took the changed pages, with remarks')).toMatchObject({
      remarks: '1 refused: http://other.example/',
    });
    await queue.close();
  });
});

describe('configuration', () => {
  it('each engine is off unless configured: no key file, nothing sent', async () => {
    const svc = await startService({ WEBHOOK_SECRET: SECRET });
    try {
      await request(svc.url).get(`/${KEY}.txt`).set('accept', 'application/json').expect(404);
      await sendEvent(svc, { id: 'nobody-listens', event: 'publish', items: [{ type: 'banner' }] }).expect(200);
      expect(svc.logs.some((l) => typeof l.msg === 'string' && l.msg.startsWith('search engine'))).toBe(false);
    } finally {
      await svc.close();
    }
  });

  it.each([
    [{ INDEXNOW_KEY: KEY }, 'PUBLIC_ORIGIN: must be set when INDEXNOW_KEY or BAIDU_PUSH_TOKEN is'],
    [{ BAIDU_PUSH_TOKEN: TOKEN }, 'PUBLIC_ORIGIN: must be set'],
    [{ PUBLIC_ORIGIN: ORIGIN, INDEXNOW_KEY: 'short' }, 'INDEXNOW_KEY: must be 8 to 128 letters, digits or dashes'],
    [{ PUBLIC_ORIGIN: ORIGIN, BAIDU_PUSH_TOKEN: 'has spaces in it' }, 'BAIDU_PUSH_TOKEN'],
    [{ PUBLIC_ORIGIN: ORIGIN, INDEXNOW_KEY: KEY, INDEXNOW_ENDPOINT: 'ftp://example.com/' }, 'INDEXNOW_ENDPOINT'],
  ])('%o is refused at start', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
