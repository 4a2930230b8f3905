/**
 * What every page's head tells search engines and share previews, read from the real service's
 * HTML: a description of its own (the item's where the page shows one thing), the Open Graph set
 * with a share card that answers as an image of at least 1200 × 630, and a JSON-LD block that a
 * JSON-LD processor expands (schema.org's context from a local copy) into the types each page
 * should carry, with the properties each type needs, in schema.org's terms only.
 */
import { sourceOfAddress } from '../shared/media-url.js';
import { shareImage, type ShareImage } from '../server/seo/share-image.js';
import type { MediaImage } from '../shared/contract/entities.js';

/** The origin the rule is asked with; the pages name the service's own. */
const ORIGIN = 'https://site.test';
import sharp from 'sharp';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTE_DESCRIPTIONS } from '../shared/site/route-descriptions.js';
import { ROUTES, type RouteKey } from '../shared/site/route-table.js';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import { DESCRIPTION_MAX } from '../server/seo/plain-text.js';
import {
  description,
  expandedNodes,
  isA,
  jsonLdBlocks,
  literal,
  meta,
  reference,
  SCHEMA,
  values,
  type Expanded,
} from './support/page-head.js';
import { sample, sampleUrl } from './support/sample-urls.js';
import { escapeHtml } from '../shared/escape-json.js';
import { vocabulary } from './support/schema-org-context.js';
import { startService, type RunningService } from './support/start-service.js';

const ROUTE_KEYS = Object.keys(ROUTES) as RouteKey[];
const urlOf = (key: RouteKey) => sampleUrl(ROUTES[key].path);
const graphemes = (text: string) => [...new Intl.Segmenter('zh-CN', { granularity: 'grapheme' }).segment(text)].length;
const hospitals = [...demoContent.domesticHospitals, ...demoContent.internationalHospitals];

/** The types each page's graph holds, besides the BreadcrumbList every page but the home page has. */
const TYPES: Partial<Record<RouteKey, string[]>> = {
  home: ['WebSite', 'MedicalOrganization', 'Hospital'],
  domesticHospitals: ['MedicalOrganization', 'Hospital'],
  international: ['MedicalOrganization', 'Hospital', 'Physician'],
  hospital: ['Hospital', 'MedicalClinic', 'Physician'],
  contact: ['MedicalOrganization'],
  contentDetail: ['MedicalWebPage'],
  reportDetail: ['NewsArticle'],
  expertDetail: ['Physician'],
};

/** What a node of each type must say (beyond its type), as search engines read it. */
const REQUIRED: Record<string, (node: Expanded, all: Expanded[]) => void> = {
  WebSite(node) {
    expect(literal(node, 'name')).toBe(demoContent.groupIntroduction.name);
    expect(reference(node, 'url')).toMatch(/^http:\/\/localhost:\d+\/$/);
  },
  MedicalOrganization(node) {
    if (node['@id']?.endsWith('/#organization')) {
      // The group: in full where the page shows it, as a publisher (name and logo) on an article.
      expect(literal(node, 'name')).toBe(demoContent.groupIntroduction.name);
      expect(reference(node, 'logo')).toMatch(/^http:\/\/localhost:\d+\/_media\/1080\//);
      expect(sourceOfAddress(reference(node, 'logo')!)).toBe(demoContent.groupIntroduction.logo);
      if (values(node, 'url').length === 0) return;
      expect(reference(node, 'url')).toMatch(/^http:\/\/localhost:\d+\/$/);
      expect(literal(node, 'telephone')).toBe(demoContent.contactUs.phone);
      expect(literal(values(node, 'address')[0]!, 'streetAddress')).toBe(demoContent.contactUs.address);
    } else {
      // A branch 联系我们 lists.
      const branch = demoContent.contactUs.branches.find((b) => b.name === literal(node, 'name'))!;
      expect(branch).toBeDefined();
      expect(literal(node, 'telephone')).toBe(branch.phone);
      expect(literal(values(node, 'address')[0]!, 'streetAddress')).toBe(branch.address);
    }
  },
  Hospital(node) {
    const name = literal(node, 'name');
    const hospital = hospitals.find((h) => h.name === name)!;
    expect(hospital, String(name)).toBeDefined();
    // A doctor's hospital (hospitalAffiliation): its node by id, its name and page.
    if (!values(node, 'address').length) {
      expect(node['@id']).toMatch(/#hospital-\d+$/);
      expect(reference(node, 'url')).toBe(node['@id']!.replace(/#.*$/, ''));
      return;
    }
    expect(literal(node, 'telephone')).toBe(hospital.phone);
    // Its own page: 医院详情 for one in China, 国际医院 for the one abroad.
    const abroad = demoContent.internationalHospitals.some((h) => h.name === hospital.name);
    expect(reference(node, 'url')).toMatch(
      abroad ? /^http:\/\/localhost:\d+\/gjws\/index$/ : new RegExp(`/gnyy/yyxq\\?id=${hospital.id}$`),
    );
    expect(node['@id']).toBe(`${reference(node, 'url')}#hospital-${hospital.id}`);
    const departments = values(node, 'department');
    expect(departments.every((d) => isA(d, 'MedicalClinic'))).toBe(true);
    expect(departments.map((d) => literal(d, 'name'))).toEqual(hospital.departments);
    const [address] = values(node, 'address');
    expect(isA(address!, 'PostalAddress')).toBe(true);
    expect(literal(address!, 'streetAddress')).toBe(hospital.address);
    expect(literal(address!, 'addressLocality')).toBe(hospital.city);
    expect(literal(address!, 'addressCountry')).toBeTruthy();
    const [geo] = values(node, 'geo');
    expect([literal(geo!, 'latitude'), literal(geo!, 'longitude')]).toEqual([hospital.geo!.latitude, hospital.geo!.longitude]);
    const hours = values(node, 'openingHoursSpecification');
    expect(hours).toHaveLength(hospital.openingHours!.length);
    for (const spec of hours) {
      expect(values(spec, 'dayOfWeek').length).toBeGreaterThan(0);
      expect(literal(spec, 'opens')).toMatch(/^\d\d:\d\d$/);
      expect(literal(spec, 'closes')).toMatch(/^\d\d:\d\d$/);
    }
  },
  Physician(node) {
    // An article's reviewer (reviewedBy): a name and the address of the expert's own page.
    if (!node['@id']?.endsWith('#physician')) {
      expect(literal(node, 'name')).toBeTruthy();
      expect(reference(node, 'url')).toMatch(/\/zjxz\/detail\?id=\d+$/);
      return;
    }
    // An expert, on the expert's own page or among a hospital's doctors: one node id, the expert's page.
    const expert = demoContent.experts.find((e) => e.name === literal(node, 'name'))!;
    expect(expert).toBeDefined();
    expect(node['@id']).toMatch(new RegExp(`/zjxz/detail\\?id=${expert.id}#physician$`));
    expect(sourceOfAddress(reference(node, 'image')!)).toBe(expert.avatar);
    expect(literal(values(node, 'medicalSpecialty')[0]!, 'name')).toBe(expert.specialty);
    const [hospital] = values(node, 'hospitalAffiliation');
    expect(isA(hospital!, 'Hospital')).toBe(true);
    expect(literal(hospital!, 'name')).toBe(expert.hospital);
    const id = [...demoContent.domesticHospitals, ...demoContent.internationalHospitals].find((h) => h.name === expert.hospital)!.id;
    expect(hospital!['@id']).toMatch(new RegExp(`#hospital-${id}$`));
  },
  MedicalWebPage: (node) => expectArticle(node, sample.article),
  NewsArticle: (node) => expectArticle(node, sample.news),
  BreadcrumbList(node) {
    const items = values(node, 'itemListElement');
    expect(items.length).toBeGreaterThanOrEqual(2);
    items.forEach((item, i) => {
      expect(isA(item, 'ListItem')).toBe(true);
      expect(literal(item, 'position')).toBe(i + 1);
      expect(literal(item, 'name')).toBeTruthy();
      // `item` is a Thing: a URL there is read as text by the context, and by search engines as the address.
      expect(literal(item, 'item') ?? reference(item, 'item')).toMatch(/^http:\/\/localhost:\d+\//);
    });
    expect(literal(items[0]!, 'name')).toBe('首页');
  },
};

function expectArticle(node: Expanded, item: (typeof demoContent.contentItems)[number]) {
  expect(literal(node, 'headline')).toBe(item.title);
  expect(values(node, 'datePublished')[0]).toEqual({ '@value': item.date, '@type': `${SCHEMA}Date` });
  expect(sourceOfAddress(reference(node, 'image')!)).toBe(item.cover);
  const [publisher] = values(node, 'publisher');
  expect(literal(publisher!, 'name')).toBe(demoContent.groupIntroduction.name);
  expect(sourceOfAddress(reference(publisher!, 'logo')!)).toBe(demoContent.groupIntroduction.logo);
}

describe('the head of every page', () => {
  let svc: RunningService;
  const pages = new Map<RouteKey, string>();
  const shared = new Map<RouteKey, ShareImage>();
  beforeAll(async () => {
    svc = await startService({}, { clientDir: 'dist/client' });
    for (const key of ROUTE_KEYS) pages.set(key, (await request(svc.url).get(urlOf(key)).expect(200)).text);
    // What each page should be shared with, by the rule, from what the API answers of its item now.
    const photoOf = async (key: RouteKey) => {
      const path =
        key === 'expertDetail'
          ? `/api/experts/${sample.expert.id}`
          : `/api/news/${key === 'reportDetail' ? sample.news.id : sample.article.id}`;
      const data = ((await request(svc.url).get(path).expect(200)).body as { data: { cover?: MediaImage; avatar?: MediaImage } }).data;
      return data.cover ?? data.avatar;
    };
    for (const key of ROUTE_KEYS) {
      const photo = ['contentDetail', 'reportDetail', 'expertDetail'].includes(key) ? await photoOf(key) : undefined;
      // The card's own address is checked by its pattern below; only the choice and a photo's address matter here.
      shared.set(key, shareImage('', { route: 'home' }, '', photo));
    }
  });
  afterAll(() => svc?.close());

  it('every page has a description of its own: plain text, at most 120 characters', () => {
    const seen = new Map<string, RouteKey>();
    for (const [key, html] of pages) {
      const text = description(html)!;
      expect(text, key).toBeTruthy();
      expect(graphemes(text), key).toBeLessThanOrEqual(DESCRIPTION_MAX);
      expect(text, key).not.toMatch(/<[a-z/!]/i);
      expect(seen.get(text), `${key} has the description of ${seen.get(text)}`).toBeUndefined();
      seen.set(text, key);
    }
  });

  it('a page about one thing describes it: the article its summary, the expert title and specialty, the hospital its city and departments', () => {
    expect(description(pages.get('contentDetail')!)).toBe(sample.article.summary);
    expect(description(pages.get('reportDetail')!)).toBe(sample.news.summary);
    const expert = description(pages.get('expertDetail')!)!;
    for (const fact of [sample.expert.name, sample.expert.title, sample.expert.specialty]) expect(expert).toContain(fact);
    const sydney = demoContent.internationalHospitals[0]!;
    const international = description(pages.get('international')!)!;
    for (const fact of [sydney.city, ...sydney.departments.slice(0, 2)]) expect(international).toContain(fact);
    const hospital = description(pages.get('hospital')!)!;
    for (const fact of [sample.hospital.city, ...sample.hospital.departments.slice(0, 2)]) expect(hospital).toContain(fact);
    // List pages keep their own.
    expect(description(pages.get('experts')!)).toBe(ROUTE_DESCRIPTIONS.experts);
    expect(description(pages.get('knowledge')!)).toBe(ROUTE_DESCRIPTIONS.knowledge);
  });

  it("a page about one item is titled by the item, then the page's name; og:title is the item's own", async () => {
    const title = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1];
    expect(title(pages.get('contentDetail')!)).toBe(`${escapeHtml(sample.article.title)} - 内容详情`);
    expect(title(pages.get('reportDetail')!)).toBe(`${escapeHtml(sample.news.title)} - 报道详情`);
    expect(title(pages.get('expertDetail')!)).toBe(`${sample.expert.name} - 专家详情`);
    expect(title(pages.get('hospital')!)).toBe(`${sample.hospital.name} - 医院详情`);
    expect(meta(pages.get('hospital')!, 'og:title')).toBe(sample.hospital.name);
    expect(title(pages.get('contact')!)).toBe('联系我们');
    // The treatments page names its treatment when opened with one; without, it is the list's page.
    const treatment = demoContent.treatments[1]!.title;
    const named = (
      await request(svc.url)
        .get(`/hzhf/tszl?id=5&name=特色治疗&title=${encodeURIComponent(treatment)}`)
        .expect(200)
    ).text;
    expect(title(named)).toBe(`${escapeHtml(treatment)} - 特色治疗`);
    expect(title(pages.get('treatments')!)).toBe('特色治疗');
    expect(meta(pages.get('contentDetail')!, 'og:title')).toBe(sample.article.title);
    expect(meta(pages.get('reportDetail')!, 'og:title')).toBe(sample.news.title);
    expect(meta(pages.get('expertDetail')!, 'og:title')).toContain(sample.expert.name);
    expect(meta(pages.get('contact')!, 'og:title')).toBe(ROUTES.contact.title);
  });

  it('every page carries the Open Graph set and a large summary card', () => {
    for (const [key, html] of pages) {
      const canonical = /<link rel="canonical" href="([^"]+)">/.exec(html)![1]!.replace(/&#38;/g, '&');
      expect(meta(html, 'og:type'), key).toBe(key === 'contentDetail' || key === 'reportDetail' ? 'article' : 'website');
      expect(meta(html, 'og:title'), key).toBeTruthy();
      expect(meta(html, 'og:description'), key).toBe(description(html));
      expect(meta(html, 'og:url'), key).toBe(canonical);
      expect(meta(html, 'og:site_name'), key).toBe(demoContent.groupIntroduction.name);
      expect(meta(html, 'og:locale'), key).toBe('zh_CN');
      const expected = shared.get(key)!;
      if (expected.url.startsWith('/_media/')) expect(new URL(meta(html, 'og:image')!).pathname, key).toBe(expected.url);
      else expect(meta(html, 'og:image'), key).toMatch(/^http:\/\/localhost:\d+\/share-card\/\w+(\/\d+)?\.png$/);
      expect(meta(html, 'og:image:width'), key).toBe(String(expected.width));
      expect(meta(html, 'og:image:height'), key).toBe(String(expected.height));
      expect(meta(html, 'twitter:card'), key).toBe('summary_large_image');
    }
    expect(meta(pages.get('reportDetail')!, 'article:published_time')).toBe(sample.news.date);
  });

  it('an article or expert is shared with its own picture when it is large enough and its version known, else a card', () => {
    const photo = { src: '/_media/1080/0123456789ab/cmVm', ref: 'cmVm', version: '0123456789ab', width: 2400, height: 1500 };
    const card = { route: 'contentDetail' as const, id: 1 };
    expect(shareImage(ORIGIN, card, '标题', photo)).toEqual({
      url: `${ORIGIN}/_media/1600/0123456789ab/cmVm`,
      width: 1600,
      height: 1000,
      alt: '标题',
    });
    expect(shareImage(ORIGIN, card, '标题', { ...photo, width: 1333, height: 1600 })).toMatchObject({ width: 1333, height: 1600 });
    for (const small of [{ ...photo, version: '0' }, { ...photo, width: 1000 }, { ...photo, width: 2400, height: 600 }, undefined]) {
      expect(shareImage(ORIGIN, card, '标题', small)).toMatchObject({ url: `${ORIGIN}/share-card/contentDetail/1.png`, type: 'image/png' });
    }
  });

  it("every page's og:image answers 200 with an image of at least 1200 × 630", async () => {
    for (const [key, html] of pages) {
      const path = new URL(meta(html, 'og:image')!).pathname;
      const res = await request(svc.url)
        .get(path)
        .buffer(true)
        .parse((r, done) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => done(null, Buffer.concat(chunks)));
        })
        .expect(200);
      const card = path.startsWith('/share-card/');
      expect(res.headers['content-type'], key).toBe(card ? 'image/png' : 'image/jpeg');
      const { width, height, format } = await sharp(res.body as Buffer).metadata();
      expect(format, key).toBe(card ? 'png' : 'jpeg');
      expect(width, key).toBeGreaterThanOrEqual(1200);
      expect(height, key).toBeGreaterThanOrEqual(630);
    }
  });

  it("every page's JSON-LD expands to its types, each with what it needs, in schema.org's terms only", async () => {
    for (const [key, html] of pages) {
      const blocks = jsonLdBlocks(html);
      expect(blocks, key).toHaveLength(1);
      const nodes = await expandedNodes(blocks[0]!);
      const wanted = [...(TYPES[key] ?? []), ...(key === 'home' ? [] : ['BreadcrumbList'])];
      const found = new Set(nodes.flatMap((n) => (n['@type'] ?? []).map((t) => t.replace(SCHEMA, ''))));
      for (const type of wanted) expect(found, `${key} has a ${type}`).toContain(type);
      if (key === 'home') expect(found, 'the home page has no breadcrumbs').not.toContain('BreadcrumbList');
      for (const node of nodes) {
        for (const type of node['@type'] ?? []) {
          const name = type.replace(SCHEMA, '');
          expect(vocabulary.types.has(name), `${key}: ${type} is a schema.org type`).toBe(true);
          REQUIRED[name]?.(node, nodes);
        }
        const types = (node['@type'] ?? []).map((t) => t.replace(SCHEMA, ''));
        for (const property of Object.keys(node).filter((p) => !p.startsWith('@'))) {
          const name = property.replace(SCHEMA, '');
          expect(vocabulary.properties.has(name), `${key}: ${property} is a schema.org property`).toBe(true);
          expect(
            types.some((t) => vocabulary.propertiesOf(t).has(name)),
            `${key}: ${types.join(', ')} may have ${name}`,
          ).toBe(true);
        }
      }
    }
  });

  it("the home page names every hospital; each hospital page its own, and its doctors' affiliation refers to it", async () => {
    const count = async (key: RouteKey) =>
      // A doctor's hospitalAffiliation refers to its hospital's node: the hospitals named in full are counted.
      (await expandedNodes(jsonLdBlocks(pages.get(key)!)[0]!)).filter((n) => isA(n, 'Hospital') && values(n, 'address').length > 0).length;
    expect(await count('home')).toBe(hospitals.length);
    expect(await count('domesticHospitals')).toBe(demoContent.domesticHospitals.length);
    expect(await count('international')).toBe(demoContent.internationalHospitals.length);
    // A hospital's own page: the hospital, and each of its doctors affiliated with it (a reference to the same node).
    const nodes = await expandedNodes(jsonLdBlocks(pages.get('hospital')!)[0]!);
    const hospital = nodes.find((n) => isA(n, 'Hospital') && values(n, 'address').length > 0)!;
    expect(literal(hospital, 'name')).toBe(sample.hospital.name);
    const doctors = nodes.filter((n) => isA(n, 'Physician'));
    expect(doctors.map((d) => literal(d, 'name')).sort()).toEqual(
      demoContent.experts
        .filter((e) => e.hospital === sample.hospital.name)
        .map((e) => e.name)
        .sort(),
    );
    for (const d of doctors) expect(values(d, 'hospitalAffiliation')[0]!['@id']).toBe(hospital['@id']);
  });

  it("the breadcrumbs follow the route table: an article's section and category, then the page", async () => {
    const crumbs = async (key: RouteKey) => {
      const list = (await expandedNodes(jsonLdBlocks(pages.get(key)!)[0]!)).find((n) => isA(n, 'BreadcrumbList'))!;
      return values(list, 'itemListElement').map((i) => [literal(i, 'name'), literal(i, 'item') ?? reference(i, 'item')]);
    };
    const article = await crumbs('contentDetail');
    expect(article.map(([name]) => name)).toEqual(['首页', '患者服务', '科普知识', sample.article.title]);
    expect(article.at(-1)![1]).toMatch(new RegExp(`/hzhf/kpzsDetail\\?id=${sample.article.id}$`));
    expect((await crumbs('experts')).map(([name]) => name)).toEqual(['首页', '专家团队']);
    const hospital = await crumbs('hospital');
    expect(hospital.map(([name]) => name)).toEqual(['首页', '国内医院', sample.hospital.name]);
    expect(hospital[1]![1]).toMatch(/\/gnyy\/index$/);
  });

  it('a page that is not found carries no share data and no JSON-LD', async () => {
    const res = await request(svc.url).get('/zjxz/detail?id=999999').expect(404);
    expect(jsonLdBlocks(res.text)).toEqual([]);
    expect(meta(res.text, 'og:title')).toBeUndefined();
  });
});
