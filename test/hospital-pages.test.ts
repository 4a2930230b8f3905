/**
 * A page for every hospital (医院详情, and 国际医院 for the one abroad), read from the real service's
 * HTML: its parts, the parts a hospital's content leaves out, the 404 of an id it does not have,
 * and its opening state at fixed instants in the hospital's own time zone, which a page kept by
 * the page cache or an edge does not outlive (docs/decisions/062).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import type { DemoContent } from '../server/embedded-api/demo-content-type.js';
import { ROUTER_DATA_ID } from '../client/app-routes.js';
import { hospitalHref, telHref } from '../shared/site/href.js';
import { searchOf, searchReady } from './support/search.js';
import { startService, type RunningService } from './support/start-service.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

const CLIENT_DIR = 'dist/client';
const domestic = demoContent.domesticHospitals;
const sydney = demoContent.internationalHospitals[0]!;

/** The page's text as read: tags out (typesetting's breaks and kept numbers without a space), entities that matter resolved. */
const textOf = (html: string) =>
  html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/<wbr>|<span class="(?:phrases|nobr)">|<\/span>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&amp;', '&')
    .replace(/\s+/g, ' ');
/** An attribute's value as the HTML writes it. */
const attr = (value: string) => value.replaceAll('&', '&amp;');
const body = (html: string) => html.slice(html.indexOf('<main'), html.indexOf('</main>'));

async function page(svc: RunningService, path: string, status = 200) {
  const res = await fetch(svc.url + path);
  expect(res.status, path).toBe(status);
  return { res, html: await res.text() };
}

describe("every hospital's page, on the demo content", () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({}, { clientDir: CLIENT_DIR });
    await searchReady(svc.url);
  });
  afterAll(() => svc?.close());

  it('a hospital in China answers 200 with its name, facts, map, call, hours, departments, doctors and news', async () => {
    for (const h of domestic) {
      const path = hospitalHref(h);
      expect(path).toBe(`/gnyy/yyxq?id=${h.id}`);
      const { html } = await page(svc, path);
      const main = body(html);
      const text = textOf(main);
      expect(/<title>([^<]*)<\/title>/.exec(html)![1], path).toBe(`${h.name} - 医院详情`);
      expect(textOf(/<h1[^>]*>[\s\S]*?<\/h1>/.exec(main)![0]).trim()).toBe(h.name);
      for (const fact of [h.city, h.summary, h.address, ...h.departments]) expect(text, `${path}: ${fact}`).toContain(fact);
      expect(main).toContain(`href="${attr(h.mapUrl!)}"`);
      expect(main).toContain(`href="geo:${h.geo!.latitude},${h.geo!.longitude}`);
      expect(text).toContain('门诊时间');
      expect(text).toContain('周一至周日 08:00–17:00');
      expect(text).toMatch(/正在营业|已休息/);
      // The call to book: its phone as a tel: link, and each doctor's card calls this hospital with the doctor's name.
      expect(main).toContain(`href="${telHref(h.phone)}"`);
      const doctors = demoContent.experts.filter((e) => e.hospital === h.name);
      expect(doctors.length, h.name).toBeGreaterThan(0);
      for (const d of doctors) {
        expect(text).toContain(`预约${d.name}医生： 致电 ${h.phone}`);
        for (const day of d.schedule) expect(text.replace(/\s+/g, ''), `${d.name}: ${day}`).toContain(day.replace(/\s+/g, ''));
      }
      expect(text).toContain(`共 ${doctors.length} 位专家`);
      // Its news: items of the news categories that name it, each leading to its report.
      const news = [...main.matchAll(/<a href="(\/gnyy\/detail\?id=(\d+))"[^>]*>/g)];
      expect(news.length, `${h.name}'s news`).toBeGreaterThan(0);
      for (const [, , id] of news) {
        const item = demoContent.contentItems.find((c) => c.id === Number(id))!;
        expect([19, 20, 21]).toContain(item.categoryId);
        expect(JSON.stringify(item).includes(h.name), `${item.title} names ${h.name}`).toBe(true);
      }
    }
  });

  it('the Sydney hospital keeps /gjws/index and gains the same parts, its hours in Sydney time', async () => {
    expect(hospitalHref({ id: sydney.id, abroad: true })).toBe('/gjws/index');
    const { html } = await page(svc, '/gjws/index');
    const main = body(html);
    const text = textOf(main);
    expect(text).toContain('周一至周五 08:30–17:30');
    expect(text).toContain('周日 休息');
    expect(text).toContain('以上为悉尼当地时间');
    expect(main).toContain(`href="${telHref(sydney.phone)}"`);
    const doctor = demoContent.experts.find((e) => e.hospital === sydney.name)!;
    expect(text).toContain(`预约${doctor.name}医生： 致电 ${sydney.phone}`);
    expect(text).toContain('医院动态');
  });

  it('an id it does not have, or one that is not an id, is the 404 page', async () => {
    for (const path of ['/gnyy/yyxq?id=999', '/gnyy/yyxq?id=7', '/gnyy/yyxq?id=abc', '/gnyy/yyxq']) {
      const { html } = await page(svc, path, 404);
      expect(/<title>([^<]*)<\/title>/.exec(html)![1], path).toBe('页面未找到');
    }
  });

  it('search finds a hospital and leads to its page', async () => {
    for (const h of [...domestic, sydney]) {
      const answer = await searchOf(svc.url, { q: h.name, kind: 'hospital' });
      expect(answer.items[0], h.name).toMatchObject({ title: h.name, url: hospitalHref({ id: h.id, abroad: h === sydney }) });
    }
  });

  it("every page carries only what the hospitals' links, calls and panels need of them", async () => {
    const { html } = await page(svc, '/');
    const data = JSON.parse(new RegExp(`<script type="application/json" id="${ROUTER_DATA_ID}">([^<]*)</script>`).exec(html)![1]!) as {
      loaderData: { root: { hospitals: Record<string, unknown>[] } };
    };
    const hospitals = data.loaderData.root.hospitals;
    expect(hospitals.map((h) => h.name)).toEqual([...domestic, sydney].map((h) => h.name));
    for (const h of hospitals) {
      const keys = Object.keys(h).sort();
      expect(keys).toEqual(h.abroad ? ['abroad', 'city', 'id', 'image', 'name', 'phone', 'summary'] : ['city', 'id', 'name', 'phone']);
    }
    expect(hospitals.at(-1)!.summary).toBe(sydney.summary.slice(0, sydney.summary.indexOf('。') + 1));
  });
});

describe('a hospital whose content gives no hours, coordinates or map, and no doctor works at', () => {
  let upstream: TestUpstream;
  let svc: RunningService;
  const content: DemoContent = structuredClone(demoContent);
  const bare = content.domesticHospitals[1]!;
  delete bare.openingHours;
  delete bare.geo;
  delete bare.mapUrl;
  content.experts = content.experts.filter((e) => e.hospital !== bare.name);

  beforeAll(async () => {
    upstream = await startTestUpstream(content);
    svc = await startService({ UPSTREAM_URL: upstream.url }, { clientDir: CLIENT_DIR });
  });
  afterAll(async () => {
    await svc?.close();
    await upstream?.stop();
  });

  it('renders without those parts, not an error', async () => {
    const { html } = await page(svc, hospitalHref(bare));
    const main = body(html);
    const text = textOf(main);
    expect(text).toContain(bare.address);
    expect(text).toContain(bare.departments[0]);
    expect(main).toContain(`href="${telHref(bare.phone)}"`);
    for (const missing of ['正在营业', '已休息', '坐标', '查看地图', '共 ']) expect(text, missing).not.toContain(missing);
    for (const part of ['hospital-hours', 'hospital-doctors', 'href="geo:', 'class="map-link"']) expect(main, part).not.toContain(part);
    expect(main).toContain('hospital-departments');
  });
});

describe('the opening state at fixed instants, and a kept page that does not outlive it', () => {
  let svc: RunningService;
  beforeAll(async () => {
    // Monday 7 December 2026, 16:59:30 in Shanghai: half a minute before it closes.
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    vi.setSystemTime(Date.parse('2026-12-07T08:59:30Z'));
    svc = await startService({}, { clientDir: CLIENT_DIR });
    await searchReady(svc.url);
  });
  afterAll(async () => {
    await svc?.close();
    vi.useRealTimers();
  });

  const state = (html: string) => /<span class="hours-state" data-open="(true|false)">([^<]+)<\/span>/.exec(html)?.slice(1);

  it('Shanghai is open at 16:59, kept no longer than until 17:00, and closed from then on', async () => {
    const path = hospitalHref(domestic[0]!);
    const first = await page(svc, path);
    expect(state(first.html)).toEqual(['true', '正在营业']);
    expect(textOf(first.html)).toContain('今日 08:00–17:00');
    expect(first.res.headers.get('x-cache')).toBe('MISS');
    // The edge may keep it at most until the change (30 s, less what the render took).
    const sharedMaxAge = Number(/s-maxage=(\d+)/.exec(first.res.headers.get('cache-control')!)![1]);
    expect(sharedMaxAge).toBeLessThanOrEqual(30);
    expect(sharedMaxAge).toBeGreaterThan(20);
    const again = await page(svc, path);
    expect(again.res.headers.get('x-cache')).toBe('HIT');

    vi.setSystemTime(Date.now() + 45_000); // 17:00:15
    const closed = await page(svc, path);
    expect(closed.res.headers.get('x-cache')).toBe('MISS');
    expect(state(closed.html)).toEqual(['false', '已休息']);
    expect(textOf(closed.html)).toContain('明日 08:00 开诊');
    expect(closed.res.headers.get('etag')).not.toBe(first.res.headers.get('etag'));
  });

  it('Sydney, in its own time zone: open on Saturday at 12:59, closed at 13:00 and all Sunday', async () => {
    const at = async (iso: string) => {
      vi.setSystemTime(Date.parse(iso));
      return state((await page(svc, '/gjws/index')).html);
    };
    expect(await at('2026-12-12T01:59:00Z')).toEqual(['true', '正在营业']); // Saturday 12:59 AEDT
    expect(await at('2026-12-12T02:00:05Z')).toEqual(['false', '已休息']); // 13:00
    expect(await at('2026-12-13T01:00:00Z')).toEqual(['false', '已休息']); // Sunday 12:00
    expect(textOf((await page(svc, '/gjws/index')).html)).toContain('今日 休息');
    // Monday 08:30 in Sydney is Sunday 21:30 UTC: open, while it is Monday 05:30 in Shanghai, closed.
    vi.setSystemTime(Date.parse('2026-12-13T21:30:05Z'));
    expect(state((await page(svc, '/gjws/index')).html)).toEqual(['true', '正在营业']);
    expect(state((await page(svc, hospitalHref(domestic[0]!))).html)).toEqual(['false', '已休息']);
  });
});
