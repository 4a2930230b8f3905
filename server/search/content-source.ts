/**
 * What the index is made of, read through the content cache like any page (docs/decisions/035):
 * every list the site shows, page by page, a few reads at once, so that a fleet's processes make
 * one call per key among them (the cache's shared tier) and never a burst. Lists give every item's
 * title, summary and picture; bodies come from details, which cost a call each: the index reads
 * them for the newest BODIES_MAX content items and for every expert, and for any item a publish
 * names. After a publish or purge only what its tags name is read again (`changes`).
 */
import { PAGE_MAX, PAGE_SIZE_MAX } from '../../shared/constants.js';
import { isContentError, type ContentApi } from '../../shared/content-api.js';
import type { ApiName } from '../../shared/contract/api-paths.js';
import type { ContentSummary, ExpertSummary } from '../../shared/contract/entities.js';
import { API_TEMPLATES } from '../../shared/contract/api-templates.js';
import { ALL_TAG } from '../fleet/purge-message.js';
import { parseApiRequest } from '../proxy/api-request.js';
import { contentDocument, expertDocument, filmDocuments, hospitalDocuments, treatmentDocuments, type SearchDocument } from './documents.js';

/** Content items whose bodies are read and indexed, newest first (each costs a call to the content API). */
const BODIES_MAX = 1_000;
/** Experts whose details are read (their bodies: education, practice, achievements). */
const EXPERT_DETAILS_MAX = 1_000;
/** Reads under way at once while the index is built. */
const READS_AT_ONCE = 4;
/** After a publish, at most this many pages of a list are read from its start for what is new. */
const HEAD_PAGES_MAX = 10;

type ListName = 'knowledgeArticles' | 'news' | 'research';
const CONTENT_LISTS: readonly ListName[] = ['knowledgeArticles', 'news', 'research'];

/** Runs `work` on each item, at most `limit` at once; the first failure fails it. */
async function eachLimited<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

type Paged<T> = { items: T[]; total: number };

/** Every item of a paged list: page 1 says how many pages there are; the others are read a few at once. */
async function wholeList<T>(read: (page: number) => Promise<Paged<T>>): Promise<T[]> {
  const first = await read(1);
  const pages = Math.min(PAGE_MAX, Math.ceil(first.total / PAGE_SIZE_MAX));
  const rest: T[][] = [];
  await eachLimited(
    Array.from({ length: Math.max(0, pages - 1) }, (_, i) => i + 2),
    READS_AT_ONCE,
    async (page) => {
      rest[page] = (await read(page)).items;
    },
  );
  return [...first.items, ...rest.flat()];
}

const newestFirst = (a: ContentSummary, b: ContentSummary) => (b.date ?? '').localeCompare(a.date ?? '') || b.id - a.id;

/** Null for an item the content API no longer has. */
async function orGone<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (isContentError(error) && error.status === 404) return null;
    throw error;
  }
}

export class ContentSource {
  constructor(private readonly api: ContentApi) {}

  #list(name: ListName, page: number, signal: AbortSignal) {
    return this.api.get(name, { query: { page, pageSize: PAGE_SIZE_MAX }, signal });
  }

  async #details(items: readonly ContentSummary[], signal: AbortSignal): Promise<SearchDocument[]> {
    const docs: SearchDocument[] = [];
    await eachLimited(items, READS_AT_ONCE, async (item) => {
      const detail = await orGone(this.api.get('newsDetail', { id: item.id, signal }));
      const doc = contentDocument(detail ?? item);
      if (doc) docs.push(doc);
    });
    return docs;
  }

  async #experts(list: readonly ExpertSummary[], signal: AbortSignal): Promise<SearchDocument[]> {
    const docs = new Map<number, SearchDocument>(list.map((e) => [e.id, expertDocument(e)]));
    await eachLimited(list.slice(0, EXPERT_DETAILS_MAX), READS_AT_ONCE, async (e) => {
      const detail = await orGone(this.api.get('expert', { id: e.id, signal }));
      if (detail) docs.set(e.id, expertDocument(detail));
    });
    return [...docs.values()];
  }

  async #allExperts(signal: AbortSignal) {
    return wholeList((page) => this.api.get('experts', { query: { page, pageSize: PAGE_SIZE_MAX }, signal }));
  }

  async #small(signal: AbortSignal): Promise<SearchDocument[]> {
    const [treatments, domestic, abroad, films] = await Promise.all([
      this.api.get('specialtyTreatment', { signal }),
      this.api.get('domesticHospitals', { signal }),
      this.api.get('internationalHospitals', { signal }),
      this.api.get('promotions', { signal }),
    ]);
    return [...treatmentDocuments(treatments), ...hospitalDocuments(domestic, abroad), ...filmDocuments(films)];
  }

  /** Everything the index holds, read now; fails when any of it cannot be read (the index in use stays). */
  async everything(signal: AbortSignal): Promise<SearchDocument[]> {
    const small = await this.#small(signal);
    const experts = await this.#experts(await this.#allExperts(signal), signal);
    const items = new Map<number, ContentSummary>();
    for (const name of CONTENT_LISTS) {
      for (const item of await wholeList((page) => this.#list(name, page, signal))) items.set(item.id, item);
    }
    const newest = [...items.values()].sort(newestFirst);
    const withBodies = await this.#details(newest.slice(0, BODIES_MAX), signal);
    const bodiless = newest.slice(BODIES_MAX).flatMap((item) => contentDocument(item) ?? []);
    return [...small, ...experts, ...withBodies, ...bodiless];
  }

  /**
   * What a purge's tags changed, read again: documents to put, and keys to remove; `everything`
   * when a tag names it all (or more than a publish should cost), for a whole build instead.
   */
  async changes(
    tags: readonly string[],
    known: (key: string) => SearchDocument | undefined,
    keys: () => Iterable<string>,
    signal: AbortSignal,
  ) {
    const put: SearchDocument[] = [];
    const remove: string[] = [];
    const named = namedBy(tags);
    if (named === 'everything') return 'everything' as const;
    for (const id of named.items) {
      const detail = await orGone(this.api.get('newsDetail', { id, signal }));
      const doc = detail && contentDocument(detail);
      if (doc) put.push(doc);
      else remove.push(`content:${id}`);
    }
    for (const id of named.experts) {
      const detail = await orGone(this.api.get('expert', { id, signal }));
      if (detail) put.push(expertDocument(detail));
      else remove.push(`expert:${id}`);
    }
    if (named.small) {
      const docs = await this.#small(signal);
      put.push(...docs);
      const now = new Set(docs.map((d) => d.key));
      for (const key of keys()) if (/^(treatment|hospital|abroad|film):/.test(key) && !now.has(key)) remove.push(key);
    }
    if (named.expertList) {
      const list = await this.#allExperts(signal);
      const changed = list.filter((e) => {
        const doc = known(`expert:${e.id}`);
        return !doc || doc.title !== e.name || doc.summary !== expertDocument(e).summary;
      });
      put.push(...(await this.#experts(changed, signal)));
      const now = new Set(list.map((e) => `expert:${e.id}`));
      for (const key of keys()) if (key.startsWith('expert:') && !now.has(key)) remove.push(key);
    }
    for (const name of named.lists) {
      const fresh = await this.#head(name, known, signal);
      if (fresh === 'everything') return fresh;
      put.push(...(await this.#details(fresh, signal)));
    }
    return { put, remove };
  }

  /** The items at the start of a list (the newest) that the index lacks or holds otherwise, read until a page has none. */
  async #head(name: ListName, known: (key: string) => SearchDocument | undefined, signal: AbortSignal) {
    const fresh: ContentSummary[] = [];
    for (let page = 1; page <= HEAD_PAGES_MAX; page++) {
      const { items } = await this.#list(name, page, signal);
      const changed = items.filter((item) => {
        const doc = known(`content:${item.id}`);
        const now = contentDocument(item);
        // A picture's new version (learnt once its bytes are read) changes nothing searchable: the next whole build takes it.
        return now && (!doc || doc.title !== now.title || doc.summary !== now.summary || doc.meta !== now.meta);
      });
      fresh.push(...changed);
      if (changed.length === 0 || items.length < PAGE_SIZE_MAX) return fresh;
    }
    return 'everything' as const;
  }
}

const LIST_OF_PATH = new Map<string, ListName>([
  [API_TEMPLATES.knowledgeArticles, 'knowledgeArticles'],
  [API_TEMPLATES.news, 'news'],
  [API_TEMPLATES.newsMedia, 'news'],
  [API_TEMPLATES.research, 'research'],
]);
const SMALL_PATHS = new Set<string>([
  API_TEMPLATES.specialtyTreatment,
  API_TEMPLATES.domesticHospitals,
  API_TEMPLATES.internationalHospitals,
  API_TEMPLATES.promotions,
]);
const EXPERT_PATHS = new Set<string>([API_TEMPLATES.experts, API_TEMPLATES.expertGroup]);

/** What a purge's tags name (cache-tags.ts): items, experts, lists; anything else leaves the index as it is. */
function namedBy(tags: readonly string[]) {
  const named = { items: new Set<number>(), experts: new Set<number>(), lists: new Set<ListName>(), small: false, expertList: false };
  const path = (template: string) => {
    const list = LIST_OF_PATH.get(template);
    if (list) named.lists.add(list);
    if (SMALL_PATHS.has(template)) named.small = true;
    if (EXPERT_PATHS.has(template)) named.expertList = true;
  };
  for (const tag of tags) {
    if (tag === ALL_TAG) return 'everything' as const;
    const item = /^(news|expert):(\d+)$/.exec(tag);
    if (item) (item[1] === 'news' ? named.items : named.experts).add(Number(item[2]));
    else if (tag.startsWith('url:/api/')) {
      const request = parseApiRequest(tag.slice(4));
      if (!('key' in request)) continue;
      if (request.name === 'newsDetail') named.items.add(request.id!);
      else if (request.name === 'expert') named.experts.add(request.id!);
      else path(templateOf(request.name));
    } else path(tag);
  }
  return named;
}

const templateOf = (name: ApiName) => API_TEMPLATES[name];
