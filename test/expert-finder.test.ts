/**
 * The expert finder on 专家团队, read from the real service's HTML: its choices are the experts'
 * hospitals (by city) and the eight featured treatments, each a link whose count is the number of
 * experts it lists; a choice narrows what the other offers; no choice lists nobody; a filtered list
 * is kept out of search engines. Every chip of every page the finder reaches is followed. Every
 * expert card, in the finder and on the home page, shows the clinic days and the call to book.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import { href } from '../shared/site/href.js';
import { searchReady } from './support/search.js';
import { startService, type RunningService } from './support/start-service.js';

/** A chip: where it leads, its label, and the count it says. */
interface Chip {
  to: string;
  label: string;
  count: number | undefined;
}

const decode = (s: string) => s.replaceAll('&amp;', '&').replaceAll('\u2060', '');

/** The finder's chips (drawn twice: the wide rows and the phone's fold; the same links), each once. */
function chips(html: string): Chip[] {
  const seen = new Map<string, Chip>();
  for (const m of html.matchAll(/<a ([^>]*class="filter-link"[^>]*)>([^<]+)<\/a>/g)) {
    const to = decode(/href="([^"]+)"/.exec(m[1]!)![1]!);
    const [label, count] = decode(m[2]!).split(' ');
    seen.set(to, { to, label: label!, count: count === undefined ? undefined : Number(count) });
  }
  return [...seen.values()];
}

const totalOf = (html: string) => Number(/共 (\d+) 位专家/.exec(html)![1]);
const namesOf = (html: string) => [...html.matchAll(/<h3 class="expert-name"><a [^>]*>([^<]+)<\/a>/g)].map((m) => m[1]!);

describe('the expert finder', () => {
  let svc: RunningService;
  const get = async (path: string, status = 200) => {
    const res = await fetch(svc.url + path);
    expect(res.status, path).toBe(status);
    return res.text();
  };
  beforeAll(async () => {
    svc = await startService({}, { clientDir: 'dist/client' });
    await searchReady(svc.url);
  });
  afterAll(() => svc?.close());

  it('offers the hospitals by city and the eight featured treatments, in the content’s order, each with its experts', async () => {
    const html = await get('/zjxz/index');
    const offered = chips(html).filter((c) => c.count !== undefined);
    const cities = [...demoContent.domesticHospitals, ...demoContent.internationalHospitals].map((h) => h.city);
    expect(offered.filter((c) => c.to.includes('hospital=')).map((c) => c.label)).toEqual(cities);
    expect(offered.filter((c) => c.to.includes('specialty=')).map((c) => c.label)).toEqual(demoContent.treatments.map((t) => t.title));
    expect(totalOf(html)).toBe(demoContent.experts.length);
    // Each expert's specialty, as the content words it, is under the treatments whose field it names.
    const laser = await get(href('experts', { specialty: '近视激光手术' }));
    expect(namesOf(laser).sort()).toEqual(['周子航', '李安德', '陈立衡'].sort());
    const fundus = await get(href('experts', { specialty: '眼底病' }));
    expect(namesOf(fundus).sort()).toEqual(['林婉清', '王德昌'].sort());
  });

  it('every chip lists as many experts as it says, a choice narrows the other, and none lists nobody', async () => {
    const pages = new Map<string, string>();
    const read = async (path: string) => pages.get(path) ?? pages.set(path, await get(path)).get(path)!;
    const queue = ['/zjxz/index'];
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      const here = new URL(path, svc.url).searchParams;
      for (const chip of chips(await read(path))) {
        const there = new URL(chip.to, svc.url).searchParams;
        // A chip changes its own filter and keeps the other as chosen here.
        const changed = ['hospital', 'specialty'].filter((k) => here.get(k) !== there.get(k));
        expect(changed.length, `${path} → ${chip.to}`).toBeLessThanOrEqual(1);
        if (chip.count === undefined) continue; // 全部
        expect(chip.count, `${path}: ${chip.label}`).toBeGreaterThan(0);
        const known = pages.has(chip.to);
        expect(totalOf(await read(chip.to)), `${path} → ${chip.label}`).toBe(chip.count);
        if (!known) queue.push(chip.to);
      }
    }
    // The whole list, every hospital, every treatment, and the pairs that have an expert.
    expect(pages.size).toBeGreaterThan(1 + 7 + 8);
    // A pair is narrower than either of its filters, and offers only what it holds.
    const both = await read(href('experts', { hospital: '上海明瞳眼科医院', specialty: '近视激光手术' }));
    expect(namesOf(both)).toEqual(['陈立衡']);
    const titles = demoContent.treatments.map((t) => t.title);
    const shanghai = chips(both).filter((c) => titles.includes(c.label));
    expect(shanghai.map((c) => c.label)).toEqual(['近视激光手术', '眼底病', '角膜病', '干眼症']);
  });

  it('a pair or a name with no expert is the 404 page', async () => {
    await get(href('experts', { hospital: '上海明瞳眼科医院', specialty: '青光眼' }), 404);
    await get(href('experts', { specialty: '屈光手术' }), 404);
    await get(href('experts', { hospital: '火星眼科医院' }), 404);
  });

  it('a list narrowed by a filter is noindex; the whole list is not', async () => {
    const robots = (html: string) => html.includes('<meta name="robots" content="noindex">');
    expect(robots(await get('/zjxz/index'))).toBe(false);
    expect(robots(await get(href('experts', { hospital: '北京明瞳眼科医院' })))).toBe(true);
    expect(robots(await get(href('experts', { specialty: '白内障' })))).toBe(true);
  });

  it.each([
    ['the finder', '/zjxz/index', demoContent.experts.length],
    ['the home page', '/', 4],
  ])('each expert card on %s shows the clinic days and calls the expert’s own hospital, named with the expert', async (_, path, shown) => {
    // Typesetting's breaks and phrase spans out: the clinic's name as written.
    const html = (await get(path)).replaceAll('<!-- -->', '').replace(/<wbr>|<span class="phrases">/g, '');
    const cards = html.split('<article class="card expert-card">').slice(1);
    expect(cards).toHaveLength(shown);
    const hospitals = [...demoContent.domesticHospitals, ...demoContent.internationalHospitals];
    for (const card of cards) {
      const expert = demoContent.experts.find((e) => namesOf(card)[0] === e.name)!;
      const hospital = hospitals.find((h) => h.name === expert.hospital)!;
      expect(card).toContain(
        `预约${expert.name}医生：</span><span class="call-how">致电 <span class="call-number">${hospital.phone}</span></span>`,
      );
      expect(card.match(/<span class="clinic-when">/g), expert.name).toHaveLength(expert.schedule.length);
      for (const day of expert.schedule) {
        const [when, clinic] = day.split(' ');
        expect(card, `${expert.name}: ${day}`).toContain(
          `<span class="clinic-when">${when}</span><span class="clinic-kind">${clinic}</span></span>`,
        );
      }
    }
  });
});
