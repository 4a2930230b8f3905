import { backingFile } from '../server/embedded-api/uploads.js';
import fs from 'node:fs';
import { describe, it, expect } from 'vitest';
import type { z } from 'zod';
import * as E from '../shared/contract/entities.js';
import { CATEGORY, RESEARCH_SUBCATEGORY_IDS } from '../shared/constants.js';
import { demoContent as D } from '../server/embedded-api/demo-content/index.js';

/** Parses with the schema and, on failure, reports the first issues with their paths. */
function expectValid(schema: z.ZodType, value: unknown, what: string) {
  const r = schema.safeParse(value);
  const issues = r.success ? [] : r.error.issues.slice(0, 5).map((i) => `${what}.${i.path.join('.')}: ${i.message}`);
  expect(issues).toEqual([]);
}

/** Every string anywhere in a value, with where it was found. */
function strings(value: unknown, at = 'demoContent', out: [string, string][] = []): [string, string][] {
  if (typeof value === 'string') out.push([at, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => strings(v, `${at}[${i}]`, out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) strings(v, `${at}.${k}`, out);
  return out;
}

/** Every upload referenced: fields holding /uploads/... and <img src> inside HTML. */
function imagePaths(): Map<string, string> {
  const found = new Map<string, string>();
  for (const [at, s] of strings(D)) {
    if (s.startsWith('/uploads/')) found.set(s, at);
    for (const m of s.matchAll(/<img\b[^>]*\bsrc="([^"]*)"/g)) found.set(m[1]!, `${at} <img>`);
  }
  return found;
}

/** Every `content` HTML field, with where it was found. */
function htmlFields(): [string, string][] {
  return strings(D).filter(([at]) => at.endsWith('.content'));
}

const byCategory = (id: number) => D.contentItems.filter((c) => c.categoryId === id);

describe('demo content: schemas', () => {
  it('group introduction, banners, contact', () => {
    expectValid(E.groupIntroduction, D.groupIntroduction, 'groupIntroduction');
    D.banners.forEach((b, i) => expectValid(E.banner, b, `banners[${i}]`));
    expectValid(E.contactUs, D.contactUs, 'contactUs');
  });

  it('treatments, also under the data.data wrapper', () => {
    D.treatments.forEach((t, i) => expectValid(E.treatment, t, `treatments[${i}]`));
    expectValid(E.specialtyTreatments, { data: D.treatments }, 'specialtyTreatments');
  });

  it('experts and the expert group built from featuredExpertIds', () => {
    D.experts.forEach((x, i) => expectValid(E.expert, x, `experts[${i}]`));
    const featured = D.expertGroup.featuredExpertIds.map((id) => D.experts.find((x) => x.id === id));
    expect(featured.every(Boolean)).toBe(true);
    const summaries = featured.map((x) => E.expertSummary.parse(x));
    expectValid(E.expertGroup, { title: D.expertGroup.title, summary: D.expertGroup.summary, experts: summaries }, 'expertGroup');
  });

  it('hospitals, awards, promotions', () => {
    D.domesticHospitals.forEach((h, i) => expectValid(E.hospital, h, `domesticHospitals[${i}]`));
    D.internationalHospitals.forEach((h, i) => expectValid(E.internationalHospital, h, `internationalHospitals[${i}]`));
    D.awards.forEach((a, i) => expectValid(E.award, a, `awards[${i}]`));
    D.promotions.forEach((p, i) => expectValid(E.promotion, p, `promotions[${i}]`));
  });

  it('categories and sub-categories', () => {
    for (const c of [...D.patientServiceCategories, ...D.researchCategories, ...D.newsCategories])
      expectValid(E.category, c, `category ${c.id}`);
    D.researchSubcategories.forEach((c, i) => expectValid(E.subCategory, c, `researchSubcategories[${i}]`));
  });

  it('content items, also as summaries and as a newsMedia payload', () => {
    D.contentItems.forEach((c) => expectValid(E.contentDetail, c, `contentItems#${c.id}`));
    const categories = D.newsCategories.map((c) => ({ ...c, items: byCategory(c.id).map((i) => E.contentSummary.parse(i)) }));
    expectValid(E.newsMedia, { categories }, 'newsMedia');
  });
});

describe('demo content: ids and categories', () => {
  const unique = (ids: number[]) => new Set(ids).size === ids.length;

  it('content item ids are unique and start at 101', () => {
    const ids = D.contentItems.map((c) => c.id);
    expect(unique(ids)).toBe(true);
    expect(Math.min(...ids)).toBeGreaterThanOrEqual(101);
  });

  it('ids are unique within each other list', () => {
    expect(unique(D.treatments.map((t) => t.id))).toBe(true);
    expect(unique(D.experts.map((x) => x.id))).toBe(true);
    expect(unique([...D.domesticHospitals, ...D.internationalHospitals].map((h) => h.id))).toBe(true);
    expect(unique(D.awards.map((a) => a.id))).toBe(true);
    expect(unique(D.promotions.map((p) => p.id))).toBe(true);
    expect(unique(D.banners.map((b) => b.id))).toBe(true);
  });

  it('uses the fixed category ids', () => {
    expect(D.patientServiceCategories.map((c) => c.id)).toEqual([CATEGORY.featuredTreatments, CATEGORY.knowledge, CATEGORY.equipment]);
    expect(D.researchCategories.map((c) => c.id)).toEqual([15, 16, 17, 18]);
    expect(D.newsCategories.map((c) => c.id)).toEqual([19, 20, 21]);
    for (const parent of [17, 18] as const) {
      expect(D.researchSubcategories.filter((c) => c.parentId === parent).map((c) => c.id)).toEqual([...RESEARCH_SUBCATEGORY_IDS[parent]]);
    }
    expect(D.researchSubcategories).toHaveLength(6);
  });

  it('every content item is in a leaf category that holds items', () => {
    const allowed = new Set([6, 7, 15, 16, 19, 20, 21, 22, 23, 24, 25, 26, 27]);
    expect(D.contentItems.filter((c) => !allowed.has(c.categoryId)).map((c) => c.id)).toEqual([]);
  });

  it('featured experts are six distinct existing experts; experts name known hospitals', () => {
    const ids = D.expertGroup.featuredExpertIds;
    expect(ids).toHaveLength(6);
    expect(unique(ids)).toBe(true);
    const names = new Set([...D.domesticHospitals, ...D.internationalHospitals].map((h) => h.name));
    expect(D.experts.filter((x) => !names.has(x.hospital)).map((x) => x.id)).toEqual([]);
  });

  it('contact branches list every hospital', () => {
    const names = [...D.domesticHospitals, ...D.internationalHospitals].map((h) => h.name);
    expect(D.contactUs.branches.map((b) => b.name)).toEqual(names);
  });

  it('a health article names an existing expert as its reviewer; the other items name none', () => {
    const experts = new Set(D.experts.map((x) => x.id));
    for (const c of D.contentItems) {
      if (c.categoryId === CATEGORY.knowledge) expect(experts.has(c.reviewerId!), `#${c.id}`).toBe(true);
      else expect(c.reviewerId, `#${c.id}`).toBeUndefined();
    }
  });

  it('a published film names files and captions that exist, and its length; a film not published shows none', () => {
    for (const p of D.promotions) {
      if (!p.video) {
        expect(p.duration, p.title).toBeUndefined();
        continue;
      }
      expect(p.duration, p.title).toMatch(/^\d{2}:\d{2}$/);
      for (const f of [...p.video.sources.map((v) => v.src), ...p.video.captions.map((c) => c.src)])
        expect(backingFile(f)?.drawn, f).toBe(false);
      const vtt = fs.readFileSync(backingFile(p.video.captions[0]!.src)!.file, 'utf8');
      expect(vtt.startsWith('WEBVTT\n')).toBe(true);
      expect(vtt).toMatch(/\d{2}:\d{2}\.\d{3} --> \d{2}:\d{2}\.\d{3}\n\p{Script=Han}/u);
    }
    // The film files stay small: a few hundred KB in all.
    const bytes = D.promotions.flatMap((p) => p.video?.sources ?? []).reduce((n, v) => n + fs.statSync(backingFile(v.src)!.file).size, 0);
    expect(bytes).toBeLessThan(500_000);
  });

  it('no placeholder a visitor could read: no made-up e-mail domain, no 某 standing for a name', () => {
    const found = strings(D).filter(([, v]) => /\.example\b|某/.test(v));
    expect(found).toEqual([]);
  });

  it('banner links are internal routes', () => {
    for (const b of D.banners) expect(b.link).toMatch(/^\/[a-z]/);
  });
});

describe('demo content: counts', () => {
  it('has the required numbers of entities', () => {
    expect(D.banners).toHaveLength(3);
    expect(D.treatments).toHaveLength(8);
    expect(D.experts.map((x) => x.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(D.domesticHospitals).toHaveLength(6);
    expect(D.internationalHospitals).toHaveLength(1);
    expect(D.awards.length).toBeGreaterThanOrEqual(8);
    expect(D.awards.length).toBeLessThanOrEqual(10);
    expect(D.promotions).toHaveLength(4);
    expect(D.groupIntroduction.stats).toHaveLength(4);
    expect(D.groupIntroduction.culture).toHaveLength(4);
    expect(D.groupIntroduction.history.length).toBeGreaterThanOrEqual(10);
    for (const x of D.experts) {
      expect(x.achievements.length).toBeGreaterThanOrEqual(3);
      expect(x.achievements.length).toBeLessThanOrEqual(5);
      expect(x.schedule.length).toBeGreaterThan(0);
    }
  });

  it('has enough content items per category', () => {
    for (const id of [19, 20, 21]) expect(byCategory(id).length, `category ${id}`).toBeGreaterThanOrEqual(12);
    expect(byCategory(6)).toHaveLength(12);
    expect(byCategory(7)).toHaveLength(6);
    for (const id of [15, 16]) expect(byCategory(id).length, `category ${id}`).toBeGreaterThanOrEqual(6);
    for (const id of [22, 23, 24, 25, 26, 27]) expect(byCategory(id).length, `category ${id}`).toBeGreaterThanOrEqual(3);
  });

  it('the items of one section (patient services, research, news) each have a cover of their own: no picture twice on one screen', () => {
    const sections = { services: [6, 7], research: [15, 16, 22, 23, 24, 25, 26, 27], news: [19, 20, 21] };
    for (const [name, ids] of Object.entries(sections)) {
      const covers = D.contentItems.filter((c) => ids.includes(c.categoryId)).map((c) => c.cover);
      const twice = covers.filter((c, i) => covers.indexOf(c) !== i);
      expect(twice, name).toEqual([]);
    }
  });

  it('the items listed together (one category, or a research category with its children) each have a cover of their own', () => {
    const lists = [...new Set(D.contentItems.map((c) => c.categoryId))].map((id) => [id]);
    lists.push([...RESEARCH_SUBCATEGORY_IDS[17]], [...RESEARCH_SUBCATEGORY_IDS[18]]);
    for (const ids of lists) {
      const covers = D.contentItems.filter((c) => ids.includes(c.categoryId)).map((c) => c.cover);
      expect(new Set(covers).size, `categories ${ids.join(', ')}`).toBe(covers.length);
    }
  });

  it('content dates are real days in 2023-2024', () => {
    for (const c of D.contentItems) {
      expect(c.date, `#${c.id}`).toMatch(/^202[34]-/);
      expect(new Date(`${c.date}T00:00:00Z`).toISOString().slice(0, 10), `#${c.id}`).toBe(c.date);
    }
  });
});

describe('demo content: HTML and images', () => {
  it('content HTML is simple: no scripts, styles, classes or event handlers', () => {
    for (const [at, h] of htmlFields()) {
      expect(h, at).not.toMatch(/<script|<style|<iframe|\sstyle=|\sclass=|\son[a-z]+=|javascript:/i);
      expect(h.length, at).toBeGreaterThan(0);
    }
  });

  it('every referenced image is an upload the embedded content API has, or draws from an illustration', () => {
    const missing: string[] = [];
    for (const [p, at] of imagePaths()) if (!backingFile(p)) missing.push(`${p} (${at})`);
    expect(missing).toEqual([]);
  });

  it('referenced SVGs are small, self-contained and sized', () => {
    const problems: string[] = [];
    for (const p of imagePaths().keys()) {
      const file = backingFile(p)?.file;
      if (!file?.endsWith('.svg')) continue;
      const svg = fs.readFileSync(file, 'utf8');
      const vb = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
      const w = /<svg[^>]*\swidth="(\d+)"/.exec(svg);
      const h = /<svg[^>]*\sheight="(\d+)"/.exec(svg);
      if (!vb || !w || !h || w[1] !== vb[1] || h[1] !== vb[2]) problems.push(`${p}: width/height must equal the viewBox`);
      if (svg.length > 12_000) problems.push(`${p}: ${svg.length} bytes`);
      if (/<(script|text|foreignObject|image|style)\b|\bhref=|url\((?!#)/i.test(svg)) problems.push(`${p}: external or forbidden content`);
    }
    expect(problems).toEqual([]);
  });
});
