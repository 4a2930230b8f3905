/**
 * The kinds of result as visitors read them, and how a search's parameters are checked: by
 * /api/search, by the server's pages, and (the kinds' names) by the search page and the suggestions.
 */
import { PAGE_MAX } from './constants.js';
import { parsePlainInt } from './plain-int.js';
import { QUERY_MAX_CHARS, SEARCH_PAGE_SIZE, SEARCH_PAGE_SIZE_MAX, type SearchKind, type SearchQuery } from './search.js';

/** What a result is, in the order the search page shows its filters. */
export const SEARCH_KINDS: Readonly<Record<SearchKind, string>> = {
  article: '文章资讯',
  treatment: '治疗与设备',
  expert: '专家医生',
  hospital: '医院',
  research: '学术研究',
  film: '宣传片',
};

/** Characters a query never keeps: C0 and C1 controls, and the invisible format characters (bidi overrides, zero widths). */
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/g;

/** What a visitor typed, made plain: any run of whitespace (tabs and line breaks too) one space, the other controls and invisible characters gone. */
function cleanQuery(raw: string): string {
  return raw.replace(/\s+/g, ' ').replace(INVISIBLE, '').trim();
}

/** A finder filter longer than this is no hospital's or specialty's name. */
export const FILTER_MAX_CHARS = 40;
const PARAMS = new Set(['q', 'kind', 'page', 'pageSize', 'hospital', 'specialty']);
const chars = (text: string) => [...text].length;

/** The query of an address's parameters, or why it is refused (the parameter's name and what is wrong). */
export function parseSearchQuery(params: URLSearchParams): SearchQuery | { error: string } {
  const seen = new Set<string>();
  for (const key of params.keys()) {
    if (!PARAMS.has(key)) return { error: `${key.slice(0, 32)}: unknown query parameter` };
    if (seen.has(key)) return { error: `${key}: given more than once` };
    seen.add(key);
  }
  // Measured after cleaning, in characters (an emoji is one): what the visitor sees they typed.
  const q = cleanQuery(params.get('q') ?? '');
  if (chars(q) > QUERY_MAX_CHARS) return { error: `q: must be at most ${QUERY_MAX_CHARS} characters` };
  const kind = params.get('kind') || undefined;
  if (kind !== undefined && !Object.hasOwn(SEARCH_KINDS, kind))
    return { error: `kind: must be one of ${Object.keys(SEARCH_KINDS).join(', ')}` };
  const number = (name: string, max: number, fallback: number) => {
    const raw = params.get(name);
    return raw === null ? fallback : parsePlainInt(raw, 1, max);
  };
  const page = number('page', PAGE_MAX, 1);
  if (page === undefined) return { error: `page: must be a whole number from 1 to ${PAGE_MAX}` };
  const pageSize = number('pageSize', SEARCH_PAGE_SIZE_MAX, SEARCH_PAGE_SIZE);
  if (pageSize === undefined) return { error: `pageSize: must be a whole number from 1 to ${SEARCH_PAGE_SIZE_MAX}` };
  const filter = (name: 'hospital' | 'specialty') => cleanQuery(params.get(name) ?? '') || undefined;
  const hospital = filter('hospital');
  const specialty = filter('specialty');
  if (chars(hospital ?? '') > FILTER_MAX_CHARS || chars(specialty ?? '') > FILTER_MAX_CHARS)
    return { error: `hospital, specialty: must be at most ${FILTER_MAX_CHARS} characters` };
  return { q, kind: kind as SearchKind | undefined, page, pageSize, hospital, specialty };
}
