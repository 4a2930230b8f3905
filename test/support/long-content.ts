/**
 * Content about twice as long as the demo's, for the checks that a layout follows its content:
 * each list the home page shows holds twice the items (featured treatments, hospitals at home and
 * abroad, news categories with their items), and the texts it shows (titles, names, summaries,
 * addresses, the footer's) are twice as long. Served by a real loopback upstream
 * (test-upstream.ts), the service cannot tell it from a real content API's.
 */
import type { ContentDetail, DemoContent } from '../../server/embedded-api/demo-content-type.js';
import { NEWS_CATEGORY_IDS } from '../../shared/constants.js';

/** Added to a copy's id: clear of every id the demo uses. */
const COPY = 100_000;
/** Added to a news category's id for its copy (clear of the research categories, 15 to 27). */
const CATEGORY_COPY = 100;

const twice = (text: string) => text + text;

export function twiceAsLong(demo: DemoContent): DemoContent {
  const treatments = demo.treatments.map((t) => ({ ...t, title: twice(t.title), summary: twice(t.summary) }));
  const domestic = demo.domesticHospitals.map((h) => ({ ...h, name: twice(h.name), address: twice(h.address) }));
  const international = demo.internationalHospitals.map((h) => ({ ...h, name: twice(h.name), summary: twice(h.summary) }));
  const news = new Set<number>(NEWS_CATEGORY_IDS);
  const items = demo.contentItems.map((c) => ({ ...c, title: twice(c.title), ...(c.summary ? { summary: twice(c.summary) } : {}) }));
  const newsCopies: ContentDetail[] = items
    .filter((c) => news.has(c.categoryId))
    .map((c) => ({ ...c, id: c.id + COPY, categoryId: c.categoryId + CATEGORY_COPY }));
  return {
    ...demo,
    treatments: [...treatments, ...treatments.map((t) => ({ ...t, id: t.id + COPY, title: `${t.title}（二）` }))],
    expertGroup: { ...demo.expertGroup, title: twice(demo.expertGroup.title), summary: twice(demo.expertGroup.summary) },
    experts: demo.experts.map((e) => ({ ...e, name: twice(e.name), hospital: twice(e.hospital), specialty: twice(e.specialty) })),
    domesticHospitals: [...domestic, ...domestic.map((h) => ({ ...h, id: h.id + COPY }))],
    internationalHospitals: [...international, ...international.map((h) => ({ ...h, id: h.id + COPY }))],
    newsCategories: [
      ...demo.newsCategories.map((c) => ({ ...c, name: twice(c.name) })),
      ...demo.newsCategories.map((c) => ({ id: c.id + CATEGORY_COPY, name: `${twice(c.name)}（二）` })),
    ],
    contentItems: [...items, ...newsCopies],
    contactUs: {
      ...demo.contactUs,
      groupName: twice(demo.contactUs.groupName),
      address: twice(demo.contactUs.address),
      hours: twice(demo.contactUs.hours),
      ...(demo.contactUs.wechat ? { wechat: { ...demo.contactUs.wechat, note: twice(demo.contactUs.wechat.note) } } : {}),
    },
    groupIntroduction: { ...demo.groupIntroduction, slogan: twice(demo.groupIntroduction.slogan) },
  };
}
