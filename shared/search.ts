/**
 * The site's search (docs/product/search.md), as both sides see it: the kinds of result, what a
 * query may ask for and how it is checked, and the answer's shape. The search page and the header's
 * suggestions read it from /api/search (the service's own endpoint, beside the 21 content paths);
 * the server's pages read the same answer in-process.
 */
import { z } from 'zod';
import { mediaImage } from './contract/entities.js';
import { PAGE_MAX } from './constants.js';

/** What a result is, in the order the search page shows its filters. */
export const SEARCH_KINDS = {
  article: '文章资讯',
  treatment: '治疗与设备',
  expert: '专家医生',
  hospital: '医院',
  research: '学术研究',
  film: '宣传片',
} as const;
export type SearchKind = keyof typeof SEARCH_KINDS;
const KIND_KEYS = Object.keys(SEARCH_KINDS) as [SearchKind, ...SearchKind[]];

/** A query longer than this, in characters, is refused (400): nobody types more into a search box. */
export const QUERY_MAX_CHARS = 64;
/** Results per page by default; the header's suggestions ask for fewer. */
export const SEARCH_PAGE_SIZE = 10;
export const SEARCH_PAGE_SIZE_MAX = 20;
/** Results that can be paged through: a query that finds more says how many, and shows the best of them. */
export const SEARCH_RESULTS_MAX = 500;
/** The search route's address (client/route-table.ts names the page) and the API's. */
export const SEARCH_API_PATH = '/api/search';

/** Characters a query never keeps: C0 and C1 controls, and the invisible format characters (bidi overrides, zero widths). */
// eslint-disable-next-line no-control-regex
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]/g;

/** What a visitor typed, made plain: invisible characters out, whitespace folded. */
export function cleanQuery(raw: string): string {
  return raw.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim();
}

/** A checked query: `q` cleaned, the rest within bounds. */
export interface SearchQuery {
  q: string;
  kind?: SearchKind | undefined;
  page: number;
  pageSize: number;
  /** The expert finder's filters (kind `expert`): a hospital's name and a specialty, as the index lists them. */
  hospital?: string | undefined;
  specialty?: string | undefined;
}

const FILTER_MAX_CHARS = 40;
const plainNumber = (max: number, fallback: number) =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,3}$/, 'must be a positive integer')
    .transform(Number)
    .pipe(z.number().max(max, `must be at most ${max}`))
    .optional()
    .transform((n) => n ?? fallback);
const filter = z
  .string()
  .max(FILTER_MAX_CHARS * 4)
  .transform(cleanQuery)
  .pipe(z.string().max(FILTER_MAX_CHARS, `must be at most ${FILTER_MAX_CHARS} characters`))
  .optional()
  .transform((s) => s || undefined);

/** The query parameters of /api/search (and of the search page, which adds none). */
export const searchParams = z
  .object({
    q: z
      .string()
      // Measured after cleaning, in characters (an emoji is one): what the visitor sees they typed.
      .transform(cleanQuery)
      .refine((q) => [...q].length <= QUERY_MAX_CHARS, `must be at most ${QUERY_MAX_CHARS} characters`)
      .optional()
      .transform((q) => q ?? ''),
    kind: z.enum(KIND_KEYS).optional(),
    page: plainNumber(PAGE_MAX, 1),
    pageSize: plainNumber(SEARCH_PAGE_SIZE_MAX, SEARCH_PAGE_SIZE),
    hospital: filter,
    specialty: filter,
  })
  .strict();

/** The query of an address's parameters, or why it is refused (the parameter's name and what is wrong). */
export function parseSearchQuery(params: URLSearchParams): SearchQuery | { error: string } {
  const raw: Record<string, string> = {};
  for (const [key, value] of params) {
    if (Object.hasOwn(raw, key)) return { error: `${key.slice(0, 32)}: given more than once` };
    raw[key] = value;
  }
  const parsed = searchParams.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const name = issue.code === 'unrecognized_keys' ? `${issue.keys[0]?.slice(0, 32)}: unknown query parameter` : issue.message;
  return { error: issue.path.length > 0 ? `${issue.path.join('.')}: ${name}` : name };
}

/** One result: what it is, where it leads, and how it matched. */
export const searchHit = z.object({
  kind: z.enum(KIND_KEYS),
  /** The item's own id in the content API (unique within its kind). */
  id: z.number().int().positive(),
  title: z.string(),
  /** The page on this site that shows it. */
  url: z.string(),
  /** One line under the title: an expert's title and hospital, an article's category and date. */
  meta: z.string(),
  picture: mediaImage.optional(),
  /** An expert's title, hospital and specialties (the expert finder draws its cards with them). */
  expert: z.object({ title: z.string(), hospital: z.string(), specialties: z.array(z.string()) }).optional(),
  /** The title and a piece of its text as HTML: the text escaped, the matched words in `<mark>`. */
  highlight: z.object({ title: z.string(), snippet: z.string() }),
});
export type SearchHit = z.infer<typeof searchHit>;

/** The expert finder's choices: the hospitals and specialties the experts in the index have, with how many each. */
export const expertFacets = z.object({
  hospitals: z.array(z.object({ name: z.string(), count: z.number().int().positive() })),
  specialties: z.array(z.object({ name: z.string(), count: z.number().int().positive() })),
});
export type ExpertFacets = z.infer<typeof expertFacets>;

export const searchAnswer = z.object({
  query: z.string(),
  kind: z.enum(KIND_KEYS).optional(),
  /** Results in all (of the kind asked for), and per kind (for the filters); the first SEARCH_RESULTS_MAX can be paged through. */
  total: z.number().int().nonnegative(),
  byKind: z.record(z.enum(KIND_KEYS), z.number().int().nonnegative()),
  page: z.number().int().positive(),
  pageSize: z.number().int().positive(),
  /** True when no result had every word, and these have some of them. */
  partial: z.boolean(),
  items: z.array(searchHit),
  /** With kind `expert`: the expert finder's choices. */
  facets: expertFacets.optional(),
});
export type SearchAnswer = z.infer<typeof searchAnswer>;
