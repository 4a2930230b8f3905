/**
 * /api/search and the search page over HTTP, against the real service and the embedded content
 * API: bad input refused with a clear 400 (the page says why), control characters stripped,
 * markup never unescaped; CORS, the cache of answers, ETags and the client's budget as on the rest
 * of the API; the OpenAPI document's parameters enforced as written; the page's head (noindex,
 * canonical) and the sitemap; the expert finder; metrics and /status; a publish findable within
 * 5 s; and two instances answering alike.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startEmbeddedApi, type EmbeddedApi } from '../server/embedded-api/embedded-api.js';
import { QUERY_MAX_CHARS, SEARCH_API_PATH } from '../shared/search.js';
import { metric } from './support/polling.js';
import { searchOf, searchReady } from './support/search.js';
import { startService, type RunningService } from './support/start-service.js';

const SECRET = 'search-test-webhook-secret';
const api = (svc: RunningService, query: string, init?: RequestInit) => fetch(`${svc.url}${SEARCH_API_PATH}?${query}`, init);
const q = (text: string) => `q=${encodeURIComponent(text)}`;

let content: EmbeddedApi;
let svc: RunningService;

beforeAll(async () => {
  // The content API sends its publish events to the service, as a CMS does.
  content = await startEmbeddedApi({ publishing: { secret: SECRET, webhooks: () => [`${svc.url}/admin/webhook`] } });
  svc = await startService({ UPSTREAM_URL: content.url, WEBHOOK_SECRET: SECRET });
  await searchReady(svc.url);
}, 90_000);
afterAll(async () => {
  await svc?.close();
  await content?.close();
});

describe('bad input', () => {
  it.each([
    ['a query over 64 characters', q('眼'.repeat(QUERY_MAX_CHARS + 1)), 'q:'],
    ['an unknown kind', `${q('眼')}&kind=doctor`, 'kind:'],
    ['page 0', `${q('眼')}&page=0`, 'page:'],
    ['a page past 1000', `${q('眼')}&page=1001`, 'page:'],
    ['pageSize 21', `${q('眼')}&pageSize=21`, 'pageSize:'],
    ['q given twice', `${q('眼')}&${q('耳')}`, 'q:'],
    ['an unknown parameter', `${q('眼')}&sort=date`, 'sort:'],
    ['a filter over 40 characters', `kind=expert&hospital=${encodeURIComponent('院'.repeat(41))}`, 'hospital'],
  ])('%s is a 400 naming the parameter, readable from any origin', async (_what, query, named) => {
    const res = await api(svc, query);
    expect(res.status).toBe(400);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('bad_request');
    expect(body.error.message).toContain(named);
  });

  it('64 characters are searched, counted as a visitor sees them (an emoji is one)', async () => {
    expect((await api(svc, q('眼'.repeat(QUERY_MAX_CHARS)))).status).toBe(200);
    expect((await api(svc, q('😀'.repeat(QUERY_MAX_CHARS)))).status).toBe(200);
  });

  it('control and invisible characters are stripped, whitespace folded', async () => {
    const answer = await searchOf(svc.url, { q: '\u0000白内\u200b障\u202e\t\n 青光眼\u0007' });
    expect(answer.query).toBe('白内障 青光眼');
  });

  it('markup in the query is never unescaped: in the API it is text, on the page it is escaped', async () => {
    const hostile = '<script>alert(1)</script>"><img src=x onerror=alert(2)>白内障';
    const answer = await searchOf(svc.url, { q: hostile });
    expect(answer.query).toBe(hostile);
    for (const item of answer.items) {
      expect(item.highlight.title + item.highlight.snippet).not.toMatch(/<(?!\/?mark>)/);
    }
    const page = await fetch(`${svc.url}/search?${q(hostile)}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;script&gt;alert(1)');
  });

  it('the search page answers a query over 64 characters with 400 and says why, in Chinese', async () => {
    const res = await fetch(`${svc.url}/search?${q('眼'.repeat(QUERY_MAX_CHARS + 1))}`);
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('搜索词最多 64 个字');
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('answers', () => {
  it('are cached per query: the second is a HIT, an ETag gives a 304, and any origin may read them', async () => {
    const first = await api(svc, q('屈光手术'));
    expect(first.status).toBe(200);
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect(first.headers.get('access-control-allow-origin')).toBe('*');
    const etag = first.headers.get('etag')!;
    await first.arrayBuffer();
    const second = await api(svc, q('屈光手术'));
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(second.headers.get('etag')).toBe(etag);
    await second.arrayBuffer();
    const again = await api(svc, q('屈光手术'), { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });

  it('a preflight is answered as for the rest of the API; other methods are refused', async () => {
    const preflight = await api(svc, q('眼'), {
      method: 'OPTIONS',
      headers: { origin: 'https://partner.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    expect((await api(svc, q('眼'), { method: 'POST' })).status).toBe(405);
  });

  it('are grouped by kind, filtered by kind, and paged', async () => {
    const all = await searchOf(svc.url, { q: '眼', pageSize: 5 });
    expect(all.items).toHaveLength(5);
    expect(Object.values(all.byKind).reduce((a, b) => a + b, 0)).toBe(all.total);
    const experts = await searchOf(svc.url, { q: '眼', kind: 'expert', page: 2, pageSize: 3 });
    expect(experts.total).toBe(all.byKind.expert);
    expect(experts.items.every((i) => i.kind === 'expert')).toBe(true);
    expect(experts.facets?.hospitals.length).toBeGreaterThan(0);
    const page1 = await searchOf(svc.url, { q: '眼', kind: 'expert', page: 1, pageSize: 3 });
    expect(page1.items.map((i) => i.id)).not.toEqual(expect.arrayContaining(experts.items.map((i) => i.id)));
  });

  it("a doctor's exact name puts the doctor first; words no item has all of are answered with some, and say so", async () => {
    expect((await searchOf(svc.url, { q: '林婉清' })).items[0]).toMatchObject({ kind: 'expert', title: '林婉清' });
    expect((await searchOf(svc.url, { q: 'linwanqing' })).items[0]).toMatchObject({ kind: 'expert', title: '林婉清' });
    const some = await searchOf(svc.url, { q: '白内障 火星' });
    expect(some.partial).toBe(true);
    expect(some.items.length).toBeGreaterThan(0);
  });

  it('a client past its budget is refused computed answers (429), while answers in the cache are still served', async () => {
    const limited = await startService({ UPSTREAM_URL: content.url, RATE_LIMIT_MISSES: '3', RATE_LIMIT_WINDOW_S: '60' });
    try {
      await searchReady(limited.url);
      const statuses: number[] = [];
      for (const word of ['青光眼', '干眼', '斜视', '老花', '飞秒']) statuses.push((await api(limited, q(word))).status);
      // The readiness probe spent one point already.
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
      const refused = await api(limited, q('角膜'));
      expect(refused.status).toBe(429);
      expect(refused.headers.get('ratelimit-policy')).toMatch(/q=3;w=60/);
      expect(refused.headers.get('retry-after')).toBeTruthy();
      expect((await api(limited, q('青光眼'))).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('the OpenAPI document', () => {
  it('states the parameters as the endpoint enforces them, with the search tag and its statuses', async () => {
    const doc = (await (await fetch(`${svc.url}/api/openapi.json`)).json()) as {
      paths: Record<
        string,
        { get: { tags: string[]; parameters: { name: string; schema: Record<string, unknown> }[]; responses: object } }
      >;
    };
    const op = doc.paths[SEARCH_API_PATH]!.get;
    expect(op.tags).toEqual(['搜索']);
    const schema = Object.fromEntries(op.parameters.map((p) => [p.name, p.schema]));
    expect(schema.q).toMatchObject({ type: 'string', maxLength: QUERY_MAX_CHARS });
    expect(schema.kind!.enum).toEqual(['article', 'treatment', 'expert', 'hospital', 'research', 'film']);
    expect(schema.page).toMatchObject({ minimum: 1, maximum: 1000, default: 1 });
    expect(schema.pageSize).toMatchObject({ minimum: 1, maximum: 20, default: 10 });
    expect(Object.keys(op.responses).sort()).toEqual(['200', '304', '400', '401', '405', '429', '503']);
    for (const [name, value] of [
      ['page', '1000'],
      ['pageSize', '20'],
      ['kind', 'film'],
    ])
      expect((await api(svc, `${q('眼')}&${name}=${value}`)).status, name).toBe(200);
  });
});

describe('the search page', () => {
  it('is streamed with its title, a canonical link and noindex, and is left out of the sitemap', async () => {
    const res = await fetch(`${svc.url}/search?${q('白内障')}&utm_source=x`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<title>搜索</title>');
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toMatch(/<link rel="canonical" href="http:\/\/localhost:\d+\/search\?q=%E7%99%BD%E5%86%85%E9%9A%9C">/);
    // The title is typeset (client/typeset/): its marks go between characters, never inside the highlight's tag.
    expect(html).toContain('<mark>白内障</mark>');
    const sitemap = await (await fetch(`${svc.url}/sitemap.xml`)).text();
    expect(sitemap).not.toContain('/search');
  });

  it('without words, shows what to search for; when nothing is found, says so and offers topics and sections', async () => {
    const empty = await (await fetch(`${svc.url}/search`)).text();
    expect(empty).toContain('想了解什么？');
    const none = await fetch(`${svc.url}/search?${q('火星人')}`);
    expect(none.status).toBe(200);
    const html = await none.text();
    expect(html).toContain('没有找到与“火星人”相关的内容');
    expect(html).toContain('热门主题');
    expect(html).toContain('按栏目浏览');
  });
});

describe('the expert finder', () => {
  it('filters the experts by hospital and specialty with addresses of their own; a name nobody has is a 404', async () => {
    const page = await (await fetch(`${svc.url}/zjxz/index`)).text();
    expect(page).toContain('按医院筛选专家');
    const hospital = '上海明瞳眼科医院';
    const filtered = await fetch(`${svc.url}/zjxz/index?hospital=${encodeURIComponent(hospital)}`);
    expect(filtered.status).toBe(200);
    const html = await filtered.text();
    const shanghai = await searchOf(svc.url, { kind: 'expert', hospital, pageSize: 20 });
    expect(shanghai.total).toBeGreaterThan(0);
    expect(html).toContain(`共 ${shanghai.total} 位专家`);
    for (const e of shanghai.items) expect(html).toContain(e.title);
    const both = await searchOf(svc.url, { kind: 'expert', hospital, specialty: '近视激光手术', pageSize: 20 });
    expect(both.items.map((i) => i.title)).toContain('陈立衡');
    expect((await fetch(`${svc.url}/zjxz/index?hospital=${encodeURIComponent('火星眼科医院')}`)).status).toBe(404);
  });
});

describe('for operators', () => {
  it('counts queries by result, and /status lists the most frequent queries that found nothing', async () => {
    const before = await metric(svc, 'search_queries_total{result="none"}');
    for (let i = 0; i < 3; i++) await api(svc, q('量子纠缠'));
    await api(svc, q('区块链'));
    expect(await metric(svc, 'search_queries_total{result="none"}')).toBe(before + 4);
    expect(await metric(svc, 'search_index_documents')).toBeGreaterThan(100);
    const status = await (await fetch(`${svc.url}/status`)).text();
    expect(status).toContain('Searches that found nothing');
    expect(status.indexOf('量子纠缠')).toBeGreaterThan(-1);
    expect(status.indexOf('量子纠缠')).toBeLessThan(status.indexOf('区块链'));
  });
});

describe('publishing', () => {
  it('an item published in the content API is found by its new words within 5 s', async () => {
    const word = '琥珀大熊猫';
    expect((await searchOf(svc.url, { q: word })).total).toBe(0);
    const list = (await (await fetch(`${svc.url}/api/news?categoryId=19&pageSize=1`)).json()) as { data: { items: { id: number }[] } };
    const id = list.data.items[0]!.id;
    const started = Date.now();
    const edit = await fetch(`${content.url}/admin/items/news/${id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: `集团开展${word}新技术培训` }),
    });
    expect(edit.status).toBe(200);
    const answer = await vi.waitFor(
      async () => {
        const found = await searchOf(svc.url, { q: word });
        expect(found.items[0]?.id).toBe(id);
        return found;
      },
      { timeout: 5_000, message: 'the published words' },
    );
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(answer.items[0]!.highlight.title).toContain(`<mark>${word}</mark>`);
  });
});

describe('a fleet', () => {
  it('two instances on the same content answer the same queries alike', async () => {
    const other = await startService({ UPSTREAM_URL: content.url });
    try {
      await searchReady(other.url);
      // What each found, in order, and how it matched (pictures aside: each instance learns their sizes on its own).
      const found = async (s: RunningService, word: string) => {
        const { items, ...rest } = await searchOf(s.url, { q: word });
        return { ...rest, items: items.map(({ picture: _picture, ...item }) => item) };
      };
      for (const word of ['白内障', 'chen li', '悉尼', '眼科医院 武汉'])
        expect(await found(other, word), word).toEqual(await found(svc, word));
    } finally {
      await other.close();
    }
  });
});
