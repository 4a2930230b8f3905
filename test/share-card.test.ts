/**
 * Share cards (each page's og:image) from the real service: only the site's own pages have one
 * (a route of the table and, for an item's page, an id the content API knows); every parameter
 * is checked; a card is drawn once however many ask for it at once, kept within its memory bound,
 * revalidated by its ETag, and a card that must be drawn or whose item must be fetched spends the client's budget. Hostile text
 * (markup, characters XML cannot hold) is drawn as text.
 */
import sharp from 'sharp';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import type { DemoContent } from '../server/embedded-api/demo-content-type.js';
import { sample } from './support/sample-urls.js';
import { startService, type RunningService } from './support/start-service.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

const binary = (res: request.Response, done: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};
const getPng = (base: string, path: string) => request(base).get(path).buffer(true).parse(binary);
const drawnLines = (svc: RunningService) => svc.logs.filter((l) => l.msg === 'share card drawn');

describe('share cards', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ SHARE_CARD_CACHE_MAX_BYTES: String(1024 * 1024) });
  });
  afterAll(() => svc?.close());

  it.each([
    ['/share-card/nope.png', 404, 'no route named nope'],
    ['/share-card/constructor.png', 404, 'no route named constructor'],
    ['/share-card/expertDetail/999999.png', 404, 'no expertDetail 999999'],
    ['/share-card/reportDetail/2147483647.png', 404, 'no reportDetail'],
    ['/share-card/expertDetail.png', 400, 'needs the item'],
    ['/share-card/experts/3.png', 400, 'takes no id'],
    ['/share-card/expertDetail/0.png', 400, 'needs the item'],
    ['/share-card/expertDetail/01.png', 400, 'needs the item'],
    ['/share-card/expertDetail/2147483648.png', 400, 'needs the item'],
    ['/share-card/expertDetail/1.jpg', 400, 'a share card is'],
    ['/share-card/home.png?width=4000', 400, 'takes no query'],
    ['/share-card/home/extra/1.png', 400, 'a share card is'],
  ])('%s answers %i and draws nothing', async (path, status, message) => {
    const before = drawnLines(svc).length;
    const res = await request(svc.url).get(path).expect(status);
    expect(res.body.error.message).toContain(message);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(drawnLines(svc).length).toBe(before);
  });

  it('other methods are refused', async () => {
    await request(svc.url).post('/share-card/home.png').expect(405);
  });

  it("a card is drawn once, however many ask at the same time and by either of an article's addresses", async () => {
    const before = drawnLines(svc).length;
    const paths = [`/share-card/reportDetail/${sample.news.id}.png`, `/share-card/contentDetail/${sample.news.id}.png`];
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => getPng(svc.url, paths[i % 2]!).expect(200)));
    expect(drawnLines(svc).length - before).toBe(1);
    expect(answers.filter((r) => r.headers['x-cache'] === 'MISS')).toHaveLength(1);
    const again = await getPng(svc.url, paths[0]!).expect(200);
    expect(again.headers['x-cache']).toBe('HIT');
    expect(Buffer.compare(again.body as Buffer, answers[0]!.body as Buffer)).toBe(0);
    expect(drawnLines(svc).length - before).toBe(1);
  });

  it('a card answers as the page does: cache policy, tags, and a 304 for a current copy', async () => {
    const path = `/share-card/expertDetail/${sample.expert.id}.png`;
    const res = await getPng(svc.url, path).expect(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+, stale-if-error=\d+$/);
    expect(res.headers['cache-tag']).toContain(`expert:${sample.expert.id}`);
    expect(res.headers['cache-tag']).toContain(`url:${path}`);
    const etag = res.headers.etag!;
    const revalidated = await request(svc.url).get(path).set('if-none-match', etag).expect(304);
    expect(revalidated.text ?? '').toBe('');
    const head = await request(svc.url).head(path).expect(200);
    expect(head.headers['content-length']).toBe(String((res.body as Buffer).length));
    const { width, height } = await sharp(res.body as Buffer).metadata();
    expect([width, height]).toEqual([1200, 630]);
  });

  it('memory is bounded: past SHARE_CARD_CACHE_MAX_BYTES the least recently used card is let go, and drawn again when asked', async () => {
    const first = `/share-card/expertDetail/${demoContent.experts[0]!.id}.png`;
    await getPng(svc.url, first).expect(200);
    // Each card is 50 KB or more: more than twenty of them pass 1 MiB.
    const others = [
      ...demoContent.experts.slice(1).map((e) => `/share-card/expertDetail/${e.id}.png`),
      ...demoContent.contentItems.slice(0, 14).map((i) => `/share-card/contentDetail/${i.id}.png`),
    ];
    for (const path of others) await getPng(svc.url, path).expect(200);
    const drawn = drawnLines(svc).length;
    const res = await getPng(svc.url, first).expect(200);
    expect(res.headers['x-cache']).toBe('MISS');
    expect(drawnLines(svc).length).toBe(drawn + 1);
  });
});

describe('share cards of hostile content', () => {
  let upstream: TestUpstream;
  let svc: RunningService;
  const hostile: DemoContent = structuredClone(demoContent);
  const item = hostile.contentItems.find((i) => i.categoryId === 19)!;
  item.title = `标题</script><script>window.__xss=1</script><!-- & "引号" \u0001\uD800 ${'很长的标题'.repeat(30)}`;
  hostile.groupIntroduction.name = '<svg onload=alert(1)>集团 & Co';

  beforeAll(async () => {
    upstream = await startTestUpstream(hostile);
    svc = await startService({ UPSTREAM_URL: upstream.url });
  });
  afterAll(async () => {
    await svc?.close();
    await upstream?.stop();
  });

  it('markup and characters XML cannot hold are drawn as text, and a title too long is shrunk and cut', async () => {
    const res = await getPng(svc.url, `/share-card/reportDetail/${item.id}.png`).expect(200);
    const { width, height, format } = await sharp(res.body as Buffer).metadata();
    expect([format, width, height]).toEqual(['png', 1200, 630]);
    expect(svc.logs.filter((l) => (l.level as number) >= 50)).toEqual([]);
  });
});

describe('a card for an item nothing holds spends the client’s budget, as its page would', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ RATE_LIMIT_MISSES: '3', RATE_LIMIT_WINDOW_S: '600' });
  });
  afterAll(() => svc?.close());

  it('past the budget a card whose item must be fetched is refused with 429, while a card already drawn is still served', async () => {
    const paths = demoContent.experts.slice(0, 5).map((e) => `/share-card/expertDetail/${e.id}.png`);
    const statuses: number[] = [];
    for (const path of paths) statuses.push((await getPng(svc.url, path)).status);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(statuses.slice(3)).toEqual([429, 429]);
    const refused = await request(svc.url).get(paths[4]!).expect(429);
    expect(refused.headers['retry-after']).toBeDefined();
    await getPng(svc.url, paths[0]!).expect(200);
  });
});

describe('drawing a card spends the client’s budget, though its data is cached', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ RATE_LIMIT_MISSES: '3', RATE_LIMIT_WINDOW_S: '600' });
  });
  afterAll(() => svc?.close());

  it('past the budget a card not in memory is refused with 429, while a card already drawn is still served', async () => {
    // The routes' own cards read nothing the content API must be asked for: only the drawing costs.
    const paths = ['home', 'culture', 'history', 'awards', 'contact'].map((route) => `/share-card/${route}.png`);
    const statuses: number[] = [];
    for (const path of paths) statuses.push((await getPng(svc.url, path)).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    await getPng(svc.url, paths[0]!).expect(200);
    expect(drawnLines(svc)).toHaveLength(3);
  });
});
