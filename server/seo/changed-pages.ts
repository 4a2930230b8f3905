/**
 * The pages a publish event changes (docs/product/publishing.md): for each kind of item, the pages
 * that show it, as docs/product/pages-and-paths.md says which page reads which path. A content
 * item's page is chosen by its category, so the item is read (through the cache, which the event
 * has just purged: the new version); a removed item's category cannot be read any more, and both
 * addresses that show content items are given (both now answer 404). List pages are given at
 * their first page, where a new item appears.
 */
import { categoryHref, contentHref, expertHref, hospitalHref, href } from '../../shared/site/href.js';
import type { ItemRoute, RouteKey } from '../../shared/site/route-table.js';
import { CATEGORY, RESEARCH_SUBCATEGORY_IDS } from '../../shared/constants.js';
import { isContentError, type ContentApi } from '../../shared/content-api.js';
import type { PublishEvent } from '../admin/publish-events.js';

type ItemType = PublishEvent['items'][number]['type'];

/** The pages that show each kind of item (besides an item's own page). The header and footer are not counted. */
const PAGES_SHOWING: Record<ItemType, readonly Exclude<RouteKey, ItemRoute>[]> = {
  news: [],
  expert: ['experts', 'home'],
  banner: ['home'],
  treatment: ['treatments', 'home'],
  hospital: ['domesticHospitals', 'international', 'home'],
  award: ['awards'],
  promotion: ['promotions'],
  group: ['culture', 'history'],
  contact: ['contact', 'accessibility'],
  // Category names are navigation: every page shows them, and no page is about them.
  category: [],
};

/** The categories the home page's news shows. */
const ON_HOME: readonly number[] = [CATEGORY.groupNews, CATEGORY.hospitalNews, CATEGORY.mediaReports];

async function contentItemPages(api: ContentApi, id: number, removed: boolean): Promise<string[]> {
  if (removed) return [href('contentDetail', { id }), href('reportDetail', { id })];
  try {
    const item = await api.get('newsDetail', { id });
    // A sub-category's item is in its filtered list and in its parent's.
    const parent = ([17, 18] as const).find((p) => (RESEARCH_SUBCATEGORY_IDS[p] as readonly number[]).includes(item.categoryId));
    const lists = [categoryHref(item.categoryId), parent && categoryHref(parent)].filter((l): l is string => l !== undefined);
    return [
      contentHref(item),
      ...lists,
      ...(ON_HOME.includes(item.categoryId) ? [href('home')] : []),
      ...(item.categoryId === CATEGORY.hospitalNews ? [href('domesticHospitals')] : []),
    ];
  } catch (error) {
    // Gone already (published, then removed): both of its possible addresses now answer 404.
    if (isContentError(error) && error.status === 404) return contentItemPages(api, id, true);
    throw error;
  }
}

/**
 * The pages of the hospitals in China an event changed: every one for a hospital's (the event names
 * no hospital), an expert's hospital for an expert's (gone already: none, its hospital's page no
 * longer names it, as the experts' list the page reads says).
 */
async function hospitalPages(api: ContentApi, type: ItemType, id: number | undefined): Promise<string[]> {
  if (type !== 'hospital' && (type !== 'expert' || id === undefined)) return [];
  const hospitals = await api.get('domesticHospitals');
  if (type === 'hospital') return hospitals.map((h) => hospitalHref(h));
  try {
    const expert = await api.get('expert', { id: id! });
    return hospitals.filter((h) => h.name === expert.hospital).map((h) => hospitalHref(h));
  } catch (error) {
    if (isContentError(error) && error.status === 404) return [];
    throw error;
  }
}

/** The site-relative addresses of the pages an event changed, each once. */
export async function changedPages(event: PublishEvent, api: ContentApi): Promise<string[]> {
  const pages = new Set<string>();
  const removed = event.event === 'delete';
  for (const { type, id } of event.items) {
    for (const route of PAGES_SHOWING[type]) pages.add(href(route));
    for (const page of await hospitalPages(api, type, id)) pages.add(page);
    if (id === undefined) continue;
    if (type === 'news') for (const page of await contentItemPages(api, id, removed)) pages.add(page);
    if (type === 'expert') pages.add(expertHref(id));
  }
  return [...pages];
}
