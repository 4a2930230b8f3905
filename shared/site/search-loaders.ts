/**
 * The loaders of the two pages that read the search index (docs/product/search.md): the expert
 * finder and 搜索. Loaded with those pages (page-loaders.ts imports them when asked), not with
 * every page's first scripts.
 */
import { data } from 'react-router';
import { isContentError, type ContentApi } from '../content-api.js';
import type { ExpertSummary } from '../contract/entities.js';
import type { SearchAnswer, SearchHit } from '../search.js';
import { listPage, pageNotFound, pageNumber, valueOf } from './loader-reads.js';

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
export async function expertsPage(api: ContentApi, url: URL, signal: AbortSignal) {
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

export interface SearchPageData {
  /** The words asked for (as typed; a refused query's first 200 characters). */
  q: string;
  /** Null without words: the page shows what can be searched for. */
  answer: SearchAnswer | null;
  /** The query cannot be answered (too long, an unknown kind): answered 400, the page says why. */
  refused?: true;
}

/** 搜索: the answer to the words in the address; a query that cannot be is answered 400 by the page itself. */
export async function searchPage(api: ContentApi, url: URL, signal: AbortSignal): Promise<SearchPageData> {
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
