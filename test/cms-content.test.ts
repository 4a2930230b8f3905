/**
 * Content as a CMS sends it, against the real service: a content API on loopback whose images are
 * editors' uploads on another loopback origin (listed in MEDIA_ORIGINS) in any letter case, one
 * on an origin nobody listed, and fields and items that do not fit the contract. Each answer keeps
 * what fits: the unusable field is dropped in its item (counted, logged once), an item without
 * its title is dropped, and only an answer with nothing usable left fails.
 */
import sharp from 'sharp';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Banner, ContentSummary, Page } from '../shared/contract/entities.js';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import type { DemoContent } from '../server/embedded-api/demo-content-type.js';
import { cameraJpeg, versionOf } from './support/media-fixtures.js';
import { startMediaOrigin, type MediaOrigin } from './support/media-origin.js';
import { sourceOfAddress } from '../shared/media-url.js';
import { startService, type RunningService } from './support/start-service.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';
import { sampleUrl } from './support/sample-urls.js';
import { ROUTES } from '../shared/site/route-table.js';

const BANNER_PATH = '/uploads/2026/11/Banner-01.JPG';
const NEWS_CATEGORY = 19;

describe('content as a CMS sends it', () => {
  let listed: MediaOrigin;
  let unlisted: MediaOrigin;
  let upstream: TestUpstream;
  let svc: RunningService;
  let photo: Buffer;
  let content: DemoContent;
  let dropped: DemoContent['contentItems'][number];
  let undated: DemoContent['contentItems'][number];

  beforeAll(async () => {
    [listed, unlisted] = await Promise.all([startMediaOrigin('127.0.0.1'), startMediaOrigin('127.0.0.2')]);
    photo = await cameraJpeg(2400, 1600);
    listed.files.set(BANNER_PATH, { body: photo, contentType: 'image/jpeg' });
    unlisted.files.set('/x.jpg', { body: photo, contentType: 'image/jpeg' });
    content = structuredClone(demoContent);
    content.banners[0]!.image = listed.url + BANNER_PATH;
    content.banners[1]!.image = `${unlisted.url}/x.jpg`;
    content.banners[2]!.subtitle = '';
    const news = content.contentItems.filter((i) => i.categoryId === NEWS_CATEGORY);
    dropped = news[0]!;
    dropped.title = '';
    undated = news[1]!;
    undated.date = '昨天';
    upstream = await startTestUpstream(content);
    svc = await startService({ UPSTREAM_URL: upstream.url, MEDIA_ORIGINS: listed.url });
  });
  afterAll(async () => {
    await svc.close();
    await Promise.all([upstream.stop(), listed.stop(), unlisted.stop()]);
  });

  it("answers every banner it can use: an upload on a listed origin as this site's address, with its size, version and colour", async () => {
    const res = await request(svc.url).get('/api/banner').expect(200);
    const banners = (res.body as { data: Banner[] }).data;
    expect(banners).toHaveLength(content.banners.length);
    const [first, second, third] = banners;
    expect(sourceOfAddress(first!.image!.src)).toBe(listed.url + BANNER_PATH);
    expect(first!.image).toMatchObject({ version: versionOf(photo), width: 2400, height: 1600 });
    expect(first!.image!.src).toBe(`/_media/1080/${versionOf(photo)}/${first!.image!.ref}`);
    expect(first!.image!.color).toMatch(/^#[0-9a-f]{6}$/);
    // On an origin nobody listed: left out, and never asked for.
    expect(second!.image).toBeUndefined();
    expect(second!.title).toBe(content.banners[1]!.title);
    expect(third!.subtitle).toBeUndefined();
    // One on the content API itself is named by its path: its origin, often an internal host, is never given out.
    expect(sourceOfAddress(third!.image!.src)).toBe(content.banners[2]!.image);
    expect(JSON.stringify(banners)).not.toContain(new URL(upstream.url).host);
    expect(unlisted.totalCalls()).toBe(0);
  });

  it('serves the upload from its own origin, in the format the browser takes, with no EXIF', async () => {
    const banners = ((await request(svc.url).get('/api/banner').expect(200)).body as { data: Banner[] }).data;
    const src = banners[0]!.image!.src;
    const avif = await request(svc.url).get(src).set('accept', 'image/avif,image/webp,*/*').buffer(true).expect(200);
    expect(avif.headers['content-type']).toBe('image/avif');
    const jpeg = await request(svc.url).get(src).set('accept', 'image/jpeg').buffer(true).expect(200);
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(jpeg.body as Buffer).metadata();
    expect(meta.width).toBe(1080);
    expect(meta.exif).toBeUndefined();
    expect(listed.callsTo(BANNER_PATH)).toBe(1);
  });

  it('renders the home page with the upload through its srcset, and nothing from the unlisted origin', async () => {
    const html = (await request(svc.url).get('/').expect(200)).text;
    const banners = ((await request(svc.url).get('/api/banner').expect(200)).body as { data: Banner[] }).data;
    expect(html).toContain(banners[0]!.image!.ref);
    expect(html).toMatch(/<link rel="preload" as="image"[^>]*imageSrcSet="\/_media\//i);
    expect(html).not.toContain('127.0.0.2');
    expect(unlisted.totalCalls()).toBe(0);
  });

  it('drops an item without its title, keeps one whose date does not fit without the date, and counts each drop', async () => {
    const list = (
      (await request(svc.url).get(`/api/news?categoryId=${NEWS_CATEGORY}&pageSize=50`).expect(200)).body as {
        data: Page<ContentSummary>;
      }
    ).data;
    const ids = list.items.map((i) => i.id);
    expect(ids).not.toContain(dropped.id);
    const kept = list.items.find((i) => i.id === undated.id);
    expect(kept?.title).toBe(undated.title);
    expect(kept?.date).toBeUndefined();
    // Its own page still shows it; the one without a title is not found.
    await request(svc.url).get(`/gnyy/detail?id=${undated.id}`).expect(200);
    const metrics = (await request(svc.url).get('/metrics').expect(200)).text;
    expect(metrics).toMatch(/content_fields_dropped_total\{path="\/api\/banner",field="data\[\]\.image"\} [1-9]/);
    expect(metrics).toMatch(/content_fields_dropped_total\{path="\/api\/news",field="data\.items\[\]"\} [1-9]/);
    expect(metrics).toMatch(/content_fields_dropped_total\{path="\/api\/news",field="data\.items\[\]\.date"\} [1-9]/);
  });

  it('logs each path and field once, however often it recurs', async () => {
    for (let page = 1; page <= 3; page++) await request(svc.url).get(`/api/news?categoryId=${NEWS_CATEGORY}&page=${page}`).expect(200);
    const warnings = svc.logs.filter((l) => l.path === '/api/news' && l.field === 'data.items[]');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toMatch(/does not fit the contract/);
  });
});

describe('an answer with nothing usable left', () => {
  let upstream: TestUpstream;
  let svc: RunningService;
  beforeAll(async () => {
    const content = structuredClone(demoContent);
    for (const banner of content.banners) banner.title = '';
    upstream = await startTestUpstream(content);
    svc = await startService({ UPSTREAM_URL: upstream.url });
  });
  afterAll(async () => {
    await svc.close();
    await upstream.stop();
  });

  it('fails that path only (502), and the home page that reads it still renders', async () => {
    const res = await request(svc.url).get('/api/banner').expect(502);
    expect((res.body as { error: { message: string } }).error.message).toBeTruthy();
    await request(svc.url).get('/api/contact-us').expect(200);
    await request(svc.url).get('/').expect(200);
  });
});

describe('every image on another origin, as a CMS with a media host sends it', () => {
  let photos: MediaOrigin;
  let upstream: TestUpstream;
  let svc: RunningService;
  beforeAll(async () => {
    photos = await startMediaOrigin('127.0.0.1');
    const photo = await cameraJpeg(1600, 1000, 3);
    // Every upload the demo content names moves to the media host, named there in upper case.
    const moved = (value: unknown): unknown => {
      if (typeof value === 'string') {
        return value.replace(/\/uploads\/[A-Za-z0-9/_.-]+/g, (path) => {
          photos.files.set(path.toUpperCase(), { body: photo, contentType: 'image/jpeg' });
          return `${photos.url}${path.toUpperCase()}`;
        });
      }
      if (Array.isArray(value)) return value.map(moved);
      if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, moved(v)]));
      return value;
    };
    upstream = await startTestUpstream(moved(structuredClone(demoContent)) as DemoContent);
    svc = await startService({ UPSTREAM_URL: upstream.url, MEDIA_ORIGINS: photos.url });
  });
  afterAll(async () => {
    await svc.close();
    await Promise.all([upstream.stop(), photos.stop()]);
  });

  it('every page answers 200 and draws each of its pictures from this site', async () => {
    for (const route of Object.values(ROUTES)) {
      const res = await request(svc.url).get(sampleUrl(route.path));
      expect(res.status, route.path).toBe(200);
      const html = res.text;
      const sources = [...html.matchAll(/<img\b[^>]*?\ssrc="([^"]*)"/g)].map((m) => m[1]!);
      for (const src of sources) expect(src, route.path).toMatch(/^\/(_media|media)\//);
      // The media host is named only inside the endpoint's refs, never as an address a browser fetches.
      expect(html, route.path).not.toContain(`src="${photos.url}`);
      expect(html, route.path).not.toContain(`srcset="${photos.url}`);
    }
    const home = (await request(svc.url).get('/')).text;
    const first = /<img\b[^>]*?\ssrc="(\/_media\/[^"]+)"/.exec(home)![1]!;
    const variant = await request(svc.url).get(first).set('accept', 'image/webp,*/*').buffer(true).expect(200);
    expect(variant.headers['content-type']).toBe('image/webp');
    expect((await sharp(variant.body as Buffer).metadata()).exif).toBeUndefined();
  });
});
