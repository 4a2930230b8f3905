/**
 * The sitemap (sitemaps.org, with Google's image extension): every route's page and the page of
 * every content item, expert and hospital in China, read through the cache. A page's `lastmod` is the date of the
 * newest content it shows (an item's own date; a list's newest item); pages whose content has
 * no date have none. Items, experts and hospitals name their picture. Past 50,000 addresses (or 50 MB) the
 * sitemap is split in parts listed by a sitemap index, as the protocol requires.
 */
import { contentHref, expertHref, hospitalHref, href } from '../../shared/site/href.js';
import { ROUTES, type ItemRoute, type RouteKey } from '../../shared/site/route-table.js';
import { CATEGORY, PAGE_MAX, PAGE_SIZE_MAX, RESEARCH_SUBCATEGORY_IDS } from '../../shared/constants.js';
import type { ContentApi } from '../../shared/content-api.js';
import type { ContentSummary, Page } from '../../shared/contract/entities.js';

/** The protocol's limits of one sitemap file. */
export const SITEMAP_MAX_URLS = 50_000;
const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
/** Pages of a list read at once while the sitemap is built. */
const READ_CONCURRENCY = 4;

export interface SitemapEntry {
  /** Site-relative. */
  path: string;
  /** YYYY-MM-DD. */
  lastmod?: string | undefined;
  /** Site-relative pictures of the page. */
  images: string[];
}

/** Every item of a paged list (up to the paging limit), its pages read a few at a time. */
async function everyItem<T>(read: (page: number) => Promise<Page<T>>): Promise<T[]> {
  const first = await read(1);
  const pages = Math.min(PAGE_MAX, Math.ceil(first.total / first.pageSize));
  const rest: T[][] = [];
  let next = 2;
  const worker = async () => {
    for (let page = next++; page <= pages; page = next++) rest[page] = (await read(page)).items;
  };
  await Promise.all(Array.from({ length: READ_CONCURRENCY }, worker));
  return [...first.items, ...rest.flatMap((items) => items ?? [])];
}

/** The categories whose items each list route shows (its newest item is its lastmod). */
function categoriesShownBy(key: RouteKey): readonly number[] {
  const route = ROUTES[key];
  if ('category' in route) {
    const subs: readonly number[] = route.category === 17 || route.category === 18 ? RESEARCH_SUBCATEGORY_IDS[route.category] : [];
    return [route.category, ...subs];
  }
  if (key === 'home') return [CATEGORY.groupNews, CATEGORY.hospitalNews, CATEGORY.mediaReports];
  // The news page without a category shows 集团新闻; 国内医院 lists 医院新闻.
  if (key === 'news') return [CATEGORY.groupNews];
  if (key === 'domesticHospitals') return [CATEGORY.hospitalNews];
  return [];
}

/** The entries of the sitemap, in order: the routes' pages, the content items', the experts', the hospitals'. */
export async function sitemapEntries(api: ContentApi): Promise<SitemapEntry[]> {
  const pageSize = PAGE_SIZE_MAX;
  const [news, research, articles, experts, hospitals] = await Promise.all([
    everyItem((page) => api.get('news', { query: { page, pageSize } })),
    everyItem((page) => api.get('research', { query: { page, pageSize } })),
    everyItem((page) => api.get('knowledgeArticles', { query: { page, pageSize } })),
    everyItem((page) => api.get('experts', { query: { page, pageSize } })),
    api.get('domesticHospitals'),
  ]);
  const items: ContentSummary[] = [...news, ...research, ...articles];
  const newest = new Map<number, string>();
  for (const item of items) if (item.date && (newest.get(item.categoryId) ?? '') < item.date) newest.set(item.categoryId, item.date);
  // A page of one item is listed once per item; search results are not listed.
  const lists = (Object.keys(ROUTES) as RouteKey[]).filter(
    (key): key is Exclude<RouteKey, ItemRoute> => !('needsId' in ROUTES[key]) && !('noindex' in ROUTES[key]),
  );
  return [
    ...lists.map((key) => ({
      path: href(key),
      lastmod: categoriesShownBy(key).reduce<string | undefined>((max, c) => {
        const date = newest.get(c);
        return date && (!max || date > max) ? date : max;
      }, undefined),
      images: [],
    })),
    ...items.map((item) => ({ path: contentHref(item), lastmod: item.date, images: item.cover ? [item.cover.src] : [] })),
    ...experts.map((e) => ({ path: expertHref(e.id), images: e.avatar ? [e.avatar.src] : [] })),
    ...hospitals.map((h) => ({ path: hospitalHref(h), images: h.image ? [h.image.src] : [] })),
  ];
}

function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

const XML = '<?xml version="1.0" encoding="UTF-8"?>';
const URLSET_OPEN = `${XML}<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">`;
const URLSET_CLOSE = '</urlset>';

function urlElement(origin: string, entry: SitemapEntry): string {
  const images = entry.images.map((image) => `<image:image><image:loc>${xmlEscape(origin + image)}</image:loc></image:image>`).join('');
  return `<url><loc>${xmlEscape(origin + entry.path)}</loc>${entry.lastmod ? `<lastmod>${entry.lastmod}</lastmod>` : ''}${images}</url>`;
}

export interface Sitemaps {
  /** /sitemap.xml: every address, or past the limits an index of the parts. */
  main: string;
  /** /sitemap-1.xml, /sitemap-2.xml, …: empty while one file holds everything. */
  parts: string[];
}

/** The path of a part of the sitemap (1-based). */
export const sitemapPartPath = (n: number) => `/sitemap-${n}.xml`;

/** The sitemap's files for these entries, on `origin`. */
export function renderSitemaps(origin: string, entries: readonly SitemapEntry[]): Sitemaps {
  const chunks: { xml: string[]; bytes: number; lastmod: string | undefined }[] = [];
  let chunk: (typeof chunks)[number] | undefined;
  for (const entry of entries) {
    const element = urlElement(origin, entry);
    const bytes = Buffer.byteLength(element);
    if (
      !chunk ||
      chunk.xml.length === SITEMAP_MAX_URLS ||
      chunk.bytes + bytes > SITEMAP_MAX_BYTES - URLSET_OPEN.length - URLSET_CLOSE.length
    ) {
      chunk = { xml: [], bytes: 0, lastmod: undefined };
      chunks.push(chunk);
    }
    chunk.xml.push(element);
    chunk.bytes += bytes;
    if (entry.lastmod && (!chunk.lastmod || entry.lastmod > chunk.lastmod)) chunk.lastmod = entry.lastmod;
  }
  const urlset = (c: (typeof chunks)[number] | undefined) => URLSET_OPEN + (c?.xml.join('') ?? '') + URLSET_CLOSE;
  if (chunks.length <= 1) return { main: urlset(chunks[0]), parts: [] };
  const sitemaps = chunks
    .map(
      (c, i) =>
        `<sitemap><loc>${xmlEscape(origin + sitemapPartPath(i + 1))}</loc>${c.lastmod ? `<lastmod>${c.lastmod}</lastmod>` : ''}</sitemap>`,
    )
    .join('');
  return {
    main: `${XML}<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${sitemaps}</sitemapindex>`,
    parts: chunks.map(urlset),
  };
}
