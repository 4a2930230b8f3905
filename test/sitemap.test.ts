/**
 * The sitemap from the real service: every route's page and every item's, with `lastmod` from
 * the content's dates and the pictures of items and experts (Google's image extension); and,
 * against a content API on loopback that reports more than 50,000 addresses, a sitemap index
 * whose parts each hold at most 50,000 and together every address once.
 */
import { sourceOfAddress } from '../shared/media-url.js';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categoryHref, contentHref, expertHref, hospitalHref, href } from '../shared/site/href.js';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import { SITEMAP_MAX_URLS, sitemapPartPath } from '../server/seo/sitemap.js';
import { startLargeUpstream, type LargeUpstream } from './support/large-upstream.js';
import { startService, type RunningService } from './support/start-service.js';

interface UrlEntry {
  loc: string;
  lastmod?: string | undefined;
  images: string[];
}

const unescape = (text: string) => text.replace(/&amp;/g, '&');

function urlEntries(xml: string): UrlEntry[] {
  return [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map(([, body]) => ({
    loc: unescape(/<loc>([^<]+)<\/loc>/.exec(body!)![1]!),
    lastmod: /<lastmod>([^<]+)<\/lastmod>/.exec(body!)?.[1],
    images: [...body!.matchAll(/<image:loc>([^<]+)<\/image:loc>/g)].map((m) => unescape(m[1]!)),
  }));
}

describe('the sitemap of the demo content', () => {
  let svc: RunningService;
  let entries: Map<string, UrlEntry>;
  let xml: string;
  beforeAll(async () => {
    svc = await startService();
    const res = await request(svc.url).get('/sitemap.xml').expect(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    xml = res.text;
    entries = new Map(urlEntries(xml).map((e) => [new URL(e.loc).pathname + new URL(e.loc).search, e]));
  });
  afterAll(() => svc?.close());

  it('is one urlset, with the image namespace, while it holds fewer than 50,000 addresses', async () => {
    expect(xml).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?><urlset xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9" xmlns:image="http:\/\/www\.google\.com\/schemas\/sitemap-image\/1\.1">/,
    );
    expect(entries.size).toBe(17 + demoContent.contentItems.length + demoContent.experts.length + demoContent.domesticHospitals.length);
    const part = await request(svc.url).get(sitemapPartPath(1)).expect(404);
    expect(part.body.error.message).toBe('the sitemap has 0 parts');
  });

  it("an item's page has its date as lastmod and its cover as its picture", () => {
    for (const item of demoContent.contentItems) {
      const entry = entries.get(contentHref(item))!;
      expect(entry, contentHref(item)).toBeDefined();
      expect(entry.lastmod).toBe(item.date);
      expect(entry.images).toHaveLength(1);
      expect(sourceOfAddress(entry.images[0]!)).toBe(item.cover);
    }
  });

  it("an expert's page has the portrait, and no lastmod (the content gives no date)", () => {
    for (const expert of demoContent.experts) {
      const entry = entries.get(expertHref(expert.id))!;
      expect(entry.lastmod).toBeUndefined();
      expect(entry.images).toHaveLength(1);
      expect(sourceOfAddress(entry.images[0]!)).toBe(expert.avatar);
    }
  });

  it("a hospital in China has its page, with the hospital's picture and no lastmod", () => {
    for (const hospital of demoContent.domesticHospitals) {
      const entry = entries.get(hospitalHref(hospital))!;
      expect(entry, hospitalHref(hospital)).toBeDefined();
      expect(entry.lastmod).toBeUndefined();
      expect(entry.images.map((src) => sourceOfAddress(src))).toEqual([hospital.image]);
    }
  });

  it('a list is as new as its newest item; a page of undated content has no lastmod', () => {
    const newest = (...categories: number[]) =>
      demoContent.contentItems
        .filter((i) => categories.includes(i.categoryId))
        .map((i) => i.date)
        .sort()
        .at(-1);
    expect(entries.get(categoryHref(6)!)!.lastmod).toBe(newest(6));
    expect(entries.get(categoryHref(17)!)!.lastmod).toBe(newest(17, 22, 23, 24));
    expect(entries.get(href('domesticHospitals'))!.lastmod).toBe(newest(20));
    expect(entries.get(href('home'))!.lastmod).toBe(newest(19, 20, 21));
    expect(entries.get(href('contact'))!.lastmod).toBeUndefined();
    expect(entries.get(href('contact'))!.images).toEqual([]);
  });
});

describe('a sitemap past 50,000 addresses', () => {
  let upstream: LargeUpstream;
  let svc: RunningService;
  beforeAll(async () => {
    upstream = await startLargeUpstream({ news: 30_000, research: 25_000 });
    svc = await startService({ UPSTREAM_URL: upstream.url });
  });
  afterAll(async () => {
    await svc?.close();
    await upstream?.stop();
  });

  it('becomes an index of parts, each of at most 50,000 addresses, holding every address once', { timeout: 60_000 }, async () => {
    const index = await request(svc.url).get('/sitemap.xml').expect(200);
    expect(index.text).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?><sitemapindex xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/,
    );
    const parts = [...index.text.matchAll(/<sitemap><loc>([^<]+)<\/loc><lastmod>(\d{4}-\d\d-\d\d)<\/lastmod><\/sitemap>/g)];
    expect(parts.map((m) => new URL(m[1]!).pathname)).toEqual([sitemapPartPath(1), sitemapPartPath(2)]);
    expect(parts[0]![2]).toBe('2024-12-31');

    const locs = new Set<string>();
    let total = 0;
    for (const [, loc] of parts) {
      const part = await request(svc.url).get(new URL(loc!).pathname).expect(200);
      const urls = urlEntries(part.text);
      expect(urls.length).toBeLessThanOrEqual(SITEMAP_MAX_URLS);
      for (const u of urls) locs.add(u.loc);
      total += urls.length;
    }
    const expected =
      17 +
      upstream.totals.news +
      upstream.totals.research +
      demoContent.contentItems.filter((i) => i.categoryId === 6).length +
      demoContent.experts.length +
      demoContent.domesticHospitals.length;
    expect(total).toBe(expected);
    expect(locs.size).toBe(expected);
    await request(svc.url).get(sitemapPartPath(3)).expect(404);
  });
});
