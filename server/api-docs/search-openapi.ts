/**
 * /api/search in the OpenAPI document (docs/decisions/024): its parameters with the bounds the
 * endpoint enforces, its answer's schema, and an example computed from the demo content through
 * the same reads, index and answer as the service's own (so it cannot drift from what the API
 * answers), with the errors it can answer.
 */
import { z } from 'zod';
import type { ContentApi } from '../../shared/content-api.js';
import { PAGE_MAX } from '../../shared/constants.js';
import { problem } from '../../shared/problems.js';
import { parseSearchQuery, SEARCH_KINDS, FILTER_MAX_CHARS } from '../../shared/search-query.js';
import { QUERY_MAX_CHARS, SEARCH_API_PATH, SEARCH_PAGE_SIZE, SEARCH_PAGE_SIZE_MAX, SEARCH_RESULTS_MAX } from '../../shared/search.js';
import { apiRequestFor } from '../proxy/api-request.js';
import { demoAnswer } from './openapi-examples.js';
import { ContentSource } from '../search/content-source.js';
import { answerFrom } from '../search/search-answer.js';
import { SearchIndex } from '../search/search-index.js';

const kinds = Object.keys(SEARCH_KINDS) as [string, ...string[]];
const count = z.number().int().nonnegative();

/** The answer's schema (shared/search.ts has its type); `media` is the MediaImage's reference. */
function answerSchema(mediaImage: z.ZodType) {
  const hit = z.object({
    kind: z.enum(kinds).describe(
      `What it is: ${Object.entries(SEARCH_KINDS)
        .map(([k, v]) => `${k} (${v})`)
        .join(', ')}.`,
    ),
    id: z.number().int().positive().describe("The item's id in the content API, unique within its kind."),
    title: z.string(),
    url: z.string().describe('The page on this site that shows it.'),
    meta: z.string().describe("One line about it: an expert's title and hospital, an article's category and date."),
    picture: mediaImage.optional(),
    expert: z
      .object({
        title: z.string(),
        hospital: z.string(),
        specialties: z.array(z.string()),
        schedule: z.array(z.string()).describe('Clinic days as the content words them, one half-day each (周一上午 专家门诊).'),
      })
      .optional(),
    highlight: z
      .object({ title: z.string(), snippet: z.string() })
      .describe('The title and a piece of the text as HTML: every character escaped, the matched words in <mark>.'),
  });
  const data = z.object({
    query: z.string().describe('The words searched for, as cleaned (control and invisible characters removed, spaces folded).'),
    kind: z.enum(kinds).optional(),
    total: count.describe(`Results in all (of the kind asked for); the first ${SEARCH_RESULTS_MAX} can be paged through.`),
    // Every kind, each named (a record keyed by the kinds would require keys it does not define).
    byKind: z.object(Object.fromEntries(kinds.map((kind) => [kind, count]))).describe('Results of each kind, every kind named.'),
    page: z.number().int().positive(),
    pageSize: z.number().int().positive(),
    partial: z.boolean().describe('True when no result had every word, and these have some of them.'),
    narrowed: z
      .boolean()
      .describe(
        'True when the words are so common that the older articles and news (beyond the newest 1,000, indexed by title and summary) were not searched; more specific words search them too.',
      ),
    items: z.array(hit),
    facets: z
      .object({
        hospitals: z.array(z.object({ name: z.string(), count: z.number().int().positive() })),
        specialties: z.array(z.object({ name: z.string(), count: z.number().int().positive() })),
      })
      .optional()
      .describe(
        "With kind=expert: the experts' hospitals, and the featured treatments (特色治疗) the experts' specialties come under, in the treatments' order, to filter by (the expert finder's).",
      ),
  });
  return z.object({ data });
}

const text = (description: string, maxLength: number) => ({ type: 'string', maxLength, description });
const integer = (minimum: number, maximum: number, fallback: number) => ({ type: 'integer', minimum, maximum, default: fallback });

const PARAMETERS = [
  {
    name: 'q',
    in: 'query',
    required: false,
    description:
      'The words: Chinese (simplified or traditional), pinyin or its initials, letters and digits, full-width or half-width. Without words (and with kind=expert) the experts are listed, for the finder.',
    schema: text(`At most ${QUERY_MAX_CHARS} characters.`, QUERY_MAX_CHARS),
    example: '白内障',
  },
  { name: 'kind', in: 'query', required: false, description: 'Only results of this kind.', schema: { type: 'string', enum: kinds } },
  { name: 'page', in: 'query', required: false, schema: integer(1, PAGE_MAX, 1) },
  { name: 'pageSize', in: 'query', required: false, schema: integer(1, SEARCH_PAGE_SIZE_MAX, SEARCH_PAGE_SIZE) },
  {
    name: 'hospital',
    in: 'query',
    required: false,
    description: 'With kind=expert: the experts of this hospital (a name from `facets`).',
    schema: text('', FILTER_MAX_CHARS),
  },
  {
    name: 'specialty',
    in: 'query',
    required: false,
    description:
      "With kind=expert: the experts under this featured treatment (a name from `facets`): one of their specialties names the treatment's field.",
    schema: text('', FILTER_MAX_CHARS),
  },
];

/** The example's request: a short page of what a patient types most. */
const EXAMPLE = new URLSearchParams({ q: '白内障', pageSize: '2' });

/** The answer to EXAMPLE on the demo content, computed once: read as the service reads it, indexed, answered. */
let example: Promise<{ summary: string; value: unknown }> | undefined;
export function searchExample(): Promise<{ summary: string; value: unknown }> {
  example ??= (async () => {
    const demo: ContentApi = {
      get: (name, request = {}) =>
        Promise.resolve(demoAnswer(apiRequestFor(name, request.id, request.query as Record<string, number>)).data as never),
      search: () => Promise.reject(problem('not_found', 'no search in the demo reader')),
    };
    const index = new SearchIndex();
    for (const doc of await new ContentSource(demo).everything(new AbortController().signal)) index.put(doc);
    const query = parseSearchQuery(EXAMPLE);
    if ('error' in query) throw new Error(query.error);
    return { summary: `GET ${SEARCH_API_PATH}?${EXAMPLE} on the demo content`, value: { data: answerFrom(index, query) } };
  })();
  return example;
}

/** The operation, its answer's schema made with the document's own `schemaOf`. */
export function searchOperation(
  schemaOf: (schema: z.ZodType) => object,
  mediaImage: z.ZodType,
  demo: { summary: string; value: unknown } | undefined,
) {
  const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
  return {
    get: {
      operationId: 'search',
      summary: '全站搜索',
      description: `The site's own search, beside the 21 content paths: articles and news, treatments and equipment, experts, hospitals, research and films, ranked: a treatment, hospital or expert whose title the query is, begins or has as words comes first (its whole title first, then its beginning, then its words; a hospital's city names it too), then everything by score (titles weigh most, then summaries, then bodies). Answered from the service's index; a query asked before is answered from a cache and costs nothing, one computed now spends a point of the client's budget. Not cached by shared caches (Cache-Control: public, max-age=0); send the ETag back for a 304.`,
      tags: ['搜索'],
      parameters: PARAMETERS,
      responses: {
        200: {
          description: 'OK: the envelope `{ data }`.',
          headers: {
            ETag: { $ref: '#/components/headers/ETag' },
            'X-Cache': {
              description: 'HIT (from the cache of answers) or MISS (computed now).',
              schema: { type: 'string', enum: ['HIT', 'MISS'] },
            },
            RateLimit: { $ref: '#/components/headers/RateLimit' },
            'RateLimit-Policy': { $ref: '#/components/headers/RateLimit-Policy' },
            'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
          },
          content: { 'application/json': { schema: schemaOf(answerSchema(mediaImage)), ...(demo ? { examples: { demo } } : {}) } },
        },
        304: ref('NotModified'),
        400: ref('BadRequest'),
        401: ref('Unauthorized'),
        405: ref('MethodNotAllowed'),
        429: ref('TooManyRequests'),
        503: ref('ServiceUnavailable'),
      },
    },
  };
}
