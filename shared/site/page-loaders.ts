/**
 * What each page reads from the content API (docs/product/pages-and-paths.md), as plain
 * functions of the content API and the page's address. The app's routes wrap them as React
 * Router loaders; pages read the result with usePageData.
 */
import { data } from 'react-router';
import { CATEGORY, NEWS_CATEGORY_IDS, PAGE_MAX, RESEARCH_CATEGORY_IDS, RESEARCH_SUBCATEGORY_IDS } from '../constants.js';
import { isContentError, type ContentApi } from '../content-api.js';
import type { ExpertSummary } from '../contract/entities.js';
import { MAX_ID, parsePlainInt } from '../plain-int.js';
import type { SearchAnswer, SearchHit } from '../search.js';
import { layoutHospitals } from './layout-hospitals.js';
import { pageNotFound, requiredId, valueOf } from './loader-reads.js';
import type { RouteKey } from './route-table.js';

/** The `page` parameter (1 when absent), or 404 when it is not a page number. */
function pageNumber(url: URL): number {
  const raw = url.searchParams.get('page');
  if (raw === null) return 1;
  const page = parsePlainInt(raw, 1, PAGE_MAX);
  if (page === undefined) throw pageNotFound('page must be a page number');
  return page;
}

/** A page of a list: past its last page, the address names nothing (404). */
async function listPage<T extends { items: unknown[]; page: number }>(read: Promise<T>): Promise<T> {
  const list = await read;
  if (list.page > 1 && list.items.length === 0) throw pageNotFound('page is past the last page');
  return list;
}

/** An optional id that must be one of `allowed`; `fallback` when absent. */
function oneOf(url: URL, key: string, allowed: readonly number[], fallback: number): number {
  const raw = url.searchParams.get(key);
  if (raw === null || raw === '') return fallback;
  const n = parsePlainInt(raw, 1, MAX_ID);
  if (n === undefined || !allowed.includes(n)) throw pageNotFound(`${key} is not a known category`);
  return n;
}

/** Experts per page: three full rows of the four-column grid (content lists keep the default, three rows of three). */
const EXPERTS_PAGE_SIZE = 12;

/** An expert as the search index answers one, as the expert list has it. */
const expertOfHit = (hit: SearchHit): ExpertSummary => ({
  id: hit.id,
  name: hit.title,
  title: hit.expert?.title ?? '',
  hospital: hit.expert?.hospital ?? '',
  specialty: hit.expert?.specialties.join('、') ?? '',
  avatar: hit.picture,
  schedule: hit.expert?.schedule,
});

/**
 * 专家团队 and its finder (docs/product/search.md): the experts' list, with the hospitals and
 * specialties to filter by; filtered, the experts the search index has with that hospital and
 * specialty. A filter that names no hospital or specialty the experts have is a 404. The finder's
 * choices are left out when the index cannot answer; the list is not.
 */
async function expertsPage(api: ContentApi, url: URL, signal: AbortSignal) {
  const hospital = url.searchParams.get('hospital') || undefined;
  const specialty = url.searchParams.get('specialty') || undefined;
  const page = pageNumber(url);
  if (!hospital && !specialty) {
    const [list, finder] = await Promise.allSettled([
      listPage(api.get('experts', { query: { page, pageSize: EXPERTS_PAGE_SIZE }, signal })),
      api.search({ kind: 'expert', pageSize: 1 }, signal),
    ]);
    if (list.status === 'rejected') throw list.reason;
    return { list: list.value, facets: valueOf(finder)?.facets ?? null, hospital, specialty };
  }
  // A filter the index refuses (too long) or that names nothing the experts have: no such page.
  const answer = await api
    .search({ kind: 'expert', hospital, specialty, page, pageSize: EXPERTS_PAGE_SIZE }, signal)
    .catch((error: unknown) => {
      if (isContentError(error) && error.status === 400) return null;
      throw error;
    });
  const named = (names: { name: string }[] | undefined, name: string | undefined) => !name || names?.some((n) => n.name === name);
  const facets = answer?.facets;
  if (!answer || !facets || !named(facets.hospitals, hospital) || !named(facets.specialties, specialty) || (page > 1 && !answer.items[0]))
    throw pageNotFound('no experts with that hospital and specialty');
  return {
    list: { items: answer.items.map(expertOfHit), total: answer.total, page, pageSize: EXPERTS_PAGE_SIZE },
    facets,
    hospital,
    specialty,
  };
}

interface SearchPageData {
  /** The words asked for (as typed; a refused query's first 200 characters). */
  q: string;
  /** Null without words: the page shows what can be searched for. */
  answer: SearchAnswer | null;
  /** The query cannot be answered (too long, an unknown kind): answered 400, the page says why. */
  refused?: true;
}

/** 搜索: the answer to the words in the address; a query that cannot be is answered 400 by the page itself. */
async function searchPage(api: ContentApi, url: URL, signal: AbortSignal): Promise<SearchPageData> {
  const get = (name: string) => url.searchParams.get(name) ?? undefined;
  const q = get('q') ?? '';
  if (!q.trim()) return { q: '', answer: null };
  try {
    return { q, answer: await api.search({ q, kind: get('kind'), page: get('page') }, signal) };
  } catch (error) {
    if (!isContentError(error) || error.status !== 400) throw error;
    // The page draws itself with this status (React Router's data()), the words kept in its box.
    return data({ q: [...q].slice(0, 200).join(''), answer: null, refused: true }, { status: 400 }) as unknown as SearchPageData;
  }
}

/** The categories the news page shows, chosen by its `id`. */
const NEWS_PAGE_CATEGORIES = [CATEGORY.groupNews, CATEGORY.hospitalNews, CATEGORY.mediaReports] as const;

type Loader = (api: ContentApi, url: URL, signal: AbortSignal) => Promise<unknown>;

function research(api: ContentApi, url: URL, signal: AbortSignal, categoryId: number) {
  return listPage(api.get('research', { query: { categoryId, page: pageNumber(url) }, signal }));
}

async function researchWithChildren(api: ContentApi, url: URL, signal: AbortSignal, parent: 17 | 18) {
  const sub = oneOf(url, 'sub', RESEARCH_SUBCATEGORY_IDS[parent], parent);
  const [children, list] = await Promise.all([
    api.get(parent === 17 ? 'educationSubcategories' : 'researchSubcategories', { signal }),
    research(api, url, signal, sub),
  ]);
  return { children, list, sub };
}

/** Items shown after an article: the newest others of its category. */
const RELATED_COUNT = 3;

/** The first page of the list that holds a category's items (one more than shown: the item itself may be among them). */
async function categoryItems(api: ContentApi, categoryId: number, signal: AbortSignal) {
  const query = { categoryId, pageSize: RELATED_COUNT + 1 };
  if (categoryId === CATEGORY.knowledge)
    return (await api.get('knowledgeArticles', { query: { pageSize: RELATED_COUNT + 1 }, signal })).items;
  if ((NEWS_CATEGORY_IDS as readonly number[]).includes(categoryId)) return (await api.get('news', { query, signal })).items;
  if ((RESEARCH_CATEGORY_IDS as readonly number[]).includes(categoryId)) return (await api.get('research', { query, signal })).items;
  return [];
}

/**
 * A content item's page: the item, the newest others of its category, and the expert who
 * reviewed it when it names one. The item decides the status; the two others are left out
 * when they cannot be read.
 */
async function contentPage(api: ContentApi, url: URL, signal: AbortSignal) {
  const item = await api.get('newsDetail', { id: requiredId(url), signal });
  const [related, reviewer] = await Promise.allSettled([
    categoryItems(api, item.categoryId, signal),
    item.reviewerId === undefined ? Promise.resolve(null) : api.get('expert', { id: item.reviewerId, signal }),
  ]);
  return {
    item,
    related: (valueOf(related) ?? []).filter((r) => r.id !== item.id).slice(0, RELATED_COUNT),
    reviewer: valueOf(reviewer),
  };
}

export const PAGE_LOADERS = {
  /**
   * Header and footer data, read once per visit, all at once; a part that fails is left out. The
   * hospitals fill the 国内医院 and 国际医院 panels and make every hospital's name a link: only what
   * that needs travels with every page.
   */
  layout: async (api, _url, signal) => {
    const [intro, patientCategories, treatments, researchCategories, newsCategories, contact, domestic, international] =
      await Promise.allSettled([
        api.get('groupIntroduction', { signal }),
        api.get('patientServiceCategories', { signal }),
        api.get('specialtyTreatment', { signal }),
        api.get('researchCategories', { signal }),
        api.get('newsCategories', { signal }),
        api.get('contactUs', { signal }),
        api.get('domesticHospitals', { signal }),
        api.get('internationalHospitals', { signal }),
      ]);
    return {
      intro: valueOf(intro),
      patientCategories: valueOf(patientCategories) ?? [],
      treatments: valueOf(treatments)?.data ?? [],
      researchCategories: valueOf(researchCategories) ?? [],
      newsCategories: valueOf(newsCategories) ?? [],
      contact: valueOf(contact),
      hospitals: layoutHospitals(valueOf(domestic) ?? [], valueOf(international) ?? []),
    };
  },
  /** The home page shows each of its sections that can be read; only when none can does it fail. */
  home: async (api, _url, signal) => {
    const parts = await Promise.allSettled([
      api.get('banner', { signal }),
      api.get('specialtyTreatment', { signal }),
      api.get('expertGroup', { signal }),
      api.get('newsMedia', { signal }),
      api.get('domesticHospitals', { signal }),
      api.get('internationalHospitals', { signal }),
    ]);
    const failed = parts.filter((p) => p.status === 'rejected');
    if (failed.length === parts.length) throw failed[0]!.reason;
    const [banners, treatments, expertGroup, newsMedia, hospitals, international] = parts;
    return {
      banners: valueOf(banners) ?? [],
      treatments: valueOf(treatments)?.data ?? [],
      expertGroup: valueOf(expertGroup),
      newsMedia: valueOf(newsMedia),
      hospitals: valueOf(hospitals) ?? [],
      international: valueOf(international) ?? [],
    };
  },
  culture: (api, _url, signal) => api.get('groupIntroduction', { signal }),
  history: (api, _url, signal) => api.get('groupIntroduction', { signal }),
  awards: (api, _url, signal) => api.get('awardHonors', { signal }),
  promotions: (api, _url, signal) => api.get('promotions', { signal }),
  treatments: async (api, url, signal) => {
    const { data } = await api.get('specialtyTreatment', { signal });
    const wanted = url.searchParams.get('title');
    const selected = wanted ? data.find((t) => t.title === wanted) : data[0];
    if (!selected) throw pageNotFound('no such treatment');
    return { treatments: data, selected };
  },
  knowledge: (api, url, signal) => listPage(api.get('knowledgeArticles', { query: { page: pageNumber(url) }, signal })),
  contentDetail: contentPage,
  equipment: (api, url, signal) => listPage(api.get('news', { query: { categoryId: CATEGORY.equipment, page: pageNumber(url) }, signal })),
  // The hospitals' pages' reads load with them, not with every page's first script.
  international: async (api, url, signal) => (await import('./hospital-loaders.js')).internationalPage(api, url, signal),
  experts: expertsPage,
  expertDetail: (api, url, signal) => api.get('expert', { id: requiredId(url), signal }),
  researchInnovation: (api, url, signal) => research(api, url, signal, CATEGORY.researchInnovation),
  academicExchange: (api, url, signal) => research(api, url, signal, CATEGORY.academicExchange),
  educationNews: (api, url, signal) => researchWithChildren(api, url, signal, 17),
  researchNews: (api, url, signal) => researchWithChildren(api, url, signal, 18),
  news: async (api, url, signal) => {
    const categoryId = oneOf(url, 'id', NEWS_PAGE_CATEGORIES, CATEGORY.groupNews);
    const list = await listPage(api.get('news', { query: { categoryId, page: pageNumber(url) }, signal }));
    return { categoryId, list };
  },
  domesticHospitals: async (api, url, signal) => {
    const [hospitals, news] = await Promise.all([
      api.get('domesticHospitals', { signal }),
      listPage(api.get('news', { query: { categoryId: CATEGORY.hospitalNews, page: pageNumber(url) }, signal })),
    ]);
    return { hospitals, news };
  },
  hospital: async (api, url, signal) => (await import('./hospital-loaders.js')).hospitalPage(api, url, signal),
  reportDetail: contentPage,
  contact: (api, _url, signal) => api.get('contactUs', { signal }),
  // How to ask the hospital for help: its phone and hours, from the content.
  accessibility: (api, _url, signal) => api.get('contactUs', { signal }),
  search: searchPage,
} satisfies Record<RouteKey | 'layout', Loader>;

export type PageKey = keyof typeof PAGE_LOADERS;
export type PageData<K extends PageKey> = Awaited<ReturnType<(typeof PAGE_LOADERS)[K]>>;
