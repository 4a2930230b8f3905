/**
 * The site's search (docs/product/search.md), as both sides see it: the kinds of result, what a
 * query may ask for and how it is checked, and the answer's shape. The search page and the header's
 * suggestions read it from /api/search (the service's own endpoint, beside the 21 content paths);
 * the server's pages read the same answer in-process. The browser's first scripts carry this
 * module, so it holds constants and types only: the kinds' names and the checking of a query are
 * in search-query.ts, the answer's schema (for the OpenAPI document) on the server.
 */
import type { MediaImage } from './contract/entities.js';

/** What a result is (shared/search-query.ts names each for visitors, in the order the search page shows them). */
export type SearchKind = 'article' | 'treatment' | 'expert' | 'hospital' | 'research' | 'film';

/** A query longer than this, in characters, is refused (400): nobody types more into a search box. */
export const QUERY_MAX_CHARS = 64;
/** Results per page by default; the header's suggestions ask for fewer. */
export const SEARCH_PAGE_SIZE = 10;
export const SEARCH_PAGE_SIZE_MAX = 20;
/** Results that can be paged through: a query that finds more says how many, and shows the best of them. */
export const SEARCH_RESULTS_MAX = 500;
/** The search route's address (shared/site/route-table.ts names the page) and the API's. */
export const SEARCH_API_PATH = '/api/search';

/** A query as an address or a caller writes it, before it is checked (parseSearchQuery). */
export type SearchParams = Partial<Record<'q' | 'kind' | 'page' | 'pageSize' | 'hospital' | 'specialty', string | number | undefined>>;

/** A checked query: `q` cleaned, the rest within bounds. */
export interface SearchQuery {
  q: string;
  kind?: SearchKind | undefined;
  page: number;
  pageSize: number;
  /** The expert finder's filters (kind `expert`): a hospital's name and a featured treatment's title, as the facets list them. */
  hospital?: string | undefined;
  specialty?: string | undefined;
}

/** One result: what it is, where it leads, and how it matched. */
export interface SearchHit {
  kind: SearchKind;
  /** The item's own id in the content API (unique within its kind). */
  id: number;
  title: string;
  /** The page on this site that shows it. */
  url: string;
  /** One line under the title: an expert's title and hospital, an article's category and date. */
  meta: string;
  picture?: MediaImage | undefined;
  /** An expert's title, hospital, specialties and clinic days (the expert finder draws its cards with them). */
  expert?: { title: string; hospital: string; specialties: string[]; schedule: string[] } | undefined;
  /** The title and a piece of its text as HTML: the text escaped, the matched words in `<mark>`. */
  highlight: { title: string; snippet: string };
}

/** The expert finder's choices: the experts' hospitals, and the featured treatments they are under, with how many experts each. */
export interface ExpertFacets {
  hospitals: { name: string; count: number }[];
  specialties: { name: string; count: number }[];
}

export interface SearchAnswer {
  query: string;
  kind?: SearchKind | undefined;
  /** Results in all (of the kind asked for); the first SEARCH_RESULTS_MAX can be paged through. */
  total: number;
  /** Results of each kind (for the filters). */
  byKind: Record<SearchKind, number>;
  page: number;
  pageSize: number;
  /** True when no result had every word, and these have some of them. */
  partial: boolean;
  /** True when the words are so common that the older articles and news were not searched (every other item was): more words search them. */
  narrowed: boolean;
  items: SearchHit[];
  /** With kind `expert`: the expert finder's choices. */
  facets?: ExpertFacets | undefined;
}
