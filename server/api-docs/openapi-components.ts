/**
 * The parts of the OpenAPI document that every path shares: the tags, the response headers, the
 * error answers and the partner key's scheme. Names a reader sees in a list (tags, summaries)
 * are in Chinese, descriptions in English.
 */
import type { ApiName } from '../../shared/contract/api-paths.js';
import { ALLOWED_REQUEST_HEADERS, EXPOSED_HEADERS, PREFLIGHT_MAX_AGE_S } from '../http/cors.js';
import { API_DOCS_PATH, OPENAPI_PATH } from '../http/api-docs-paths.js';
import { ERROR_EXAMPLES } from './openapi-examples.js';

const TAGS = {
  group: { name: '集团', description: 'The group: its introduction, culture and history, the home page banners, awards and films.' },
  patients: { name: '患者服务', description: 'Patient services: featured treatments, their categories and the eye-health articles.' },
  hospitals: { name: '医院', description: 'The domestic hospitals and the international one in Sydney.' },
  experts: { name: '专家', description: "The expert team: the home page's selection, the list and each expert." },
  research: {
    name: '学术研究',
    description: 'Academic research: its categories, the sub-categories of education and research news, and the items.',
  },
  news: {
    name: '新闻',
    description: 'News and every content item: categories, lists and details (articles, research and news share one id space).',
  },
  contact: { name: '联系我们', description: 'How to reach the group and its hospitals.' },
  search: { name: '搜索', description: "The site's search over everything the paths above serve." },
} as const;

/** The section each path belongs to. */
const TAG_OF: Record<ApiName, keyof typeof TAGS> = {
  groupIntroduction: 'group',
  banner: 'group',
  awardHonors: 'group',
  promotions: 'group',
  specialtyTreatment: 'patients',
  patientServiceCategories: 'patients',
  knowledgeArticles: 'patients',
  domesticHospitals: 'hospitals',
  internationalHospitals: 'hospitals',
  expertGroup: 'experts',
  experts: 'experts',
  expert: 'experts',
  researchCategories: 'research',
  research: 'research',
  educationSubcategories: 'research',
  researchSubcategories: 'research',
  newsMedia: 'news',
  newsCategories: 'news',
  news: 'news',
  newsDetail: 'news',
  contactUs: 'contact',
};

/** The document's tags, in the order of the site's sections. */
export const tags = Object.values(TAGS);

/** A path's tag name. */
export const tagOf = (name: ApiName): string => TAGS[TAG_OF[name]].name;

export const PARTNER_KEY = 'partnerKey';

const ref = (kind: 'headers' | 'responses' | 'schemas', name: string) => ({ $ref: `#/components/${kind}/${name}` });

const headers = {
  ETag: {
    description: 'Weak validator of the answer; send it back in If-None-Match and get a 304 while nothing changed.',
    schema: { type: 'string', examples: ['W/"kX2d3mJbq8t1lZQwJtq0Ve3p7aE"'] },
  },
  'Cache-Control': {
    description:
      'max-age=0: a browser asks again each time (a 304 costs little); s-maxage: how long a shared cache may keep the answer; then stale-while-revalidate and stale-if-error. Errors are no-store.',
    schema: { type: 'string', examples: ['public, max-age=0, s-maxage=60, stale-while-revalidate=60, stale-if-error=86400'] },
  },
  Age: { description: 'Seconds since the answer was fetched from the content API.', schema: { type: 'integer', minimum: 0 } },
  'X-Cache': {
    description:
      "HIT (fresh in this process), SHARED (fresh in the fleet's shared cache), MISS (fetched now), STALE (served stale while it is refreshed, or because the content API failed) or REFRESH (refreshed now).",
    schema: { type: 'string', enum: ['HIT', 'SHARED', 'MISS', 'STALE', 'REFRESH'] },
  },
  'Cache-Tag': {
    description: 'What the answer was made from, for purges: its address, its path and the items it carries.',
    schema: { type: 'string', examples: ['all, url:/api/news/212, /api/news/{id}, news:212'] },
  },
  'Server-Timing': {
    description: 'The cache result, and on a MISS or REFRESH the time the content API took (ms).',
    schema: { type: 'string', examples: ['cache;desc=MISS, upstream;dur=12.4'] },
  },
  RateLimit: {
    description:
      'Where the client stands (IETF httpapi draft "RateLimit header fields for HTTP"): `r` calls to the content API left and `t` seconds until the window ends, under the policy named. On every answer that made a call to the content API (and so spent a point), and on every 429.',
    schema: { type: 'string', examples: ['"calls";r=59;t=7'] },
  },
  'RateLimit-Policy': {
    description:
      "The client's budget (same draft): `q` calls to the content API per `w` seconds; `calls` for a client's address, `partner` for a partner's key (X-API-Key). Sent with RateLimit.",
    schema: { type: 'string', examples: ['"calls";q=60;w=10'] },
  },
  'Retry-After': { description: 'Seconds after which asking again may succeed.', schema: { type: 'integer', minimum: 1 } },
  'X-Request-Id': {
    description:
      "The request's id: the X-Request-Id sent (1 to 64 of A-Z, a-z, 0-9, `.`, `_`, `-`), else a new one. Quote it when asking for help.",
    schema: { type: 'string' },
  },
  Allow: { description: 'The methods the API takes.', schema: { type: 'string', enum: ['GET, HEAD'] } },
  'WWW-Authenticate': {
    description: 'Where a key goes.',
    schema: { type: 'string', enum: ['ApiKey realm="api", header="X-API-Key"'] },
  },
};

type HeaderName = keyof typeof headers;
const headerRefs = (...names: HeaderName[]) => Object.fromEntries(names.map((n) => [n, ref('headers', n)]));

/** The headers of a 200 (and, but for the body, a 304). */
export const answerHeaders = headerRefs(
  'ETag',
  'Cache-Control',
  'Age',
  'X-Cache',
  'Cache-Tag',
  'Server-Timing',
  'RateLimit',
  'RateLimit-Policy',
  'X-Request-Id',
);

const errorAnswer = (description: string, examples: object, more: HeaderName[] = []) => ({
  description,
  headers: headerRefs('Cache-Control', 'X-Request-Id', ...more),
  content: { 'application/json': { schema: ref('schemas', 'Error'), examples } },
});

const responses = {
  NotModified: {
    description: 'Not modified: If-None-Match named the current ETag. No body; the same headers as a 200.',
    headers: answerHeaders,
  },
  BadRequest: errorAnswer(
    'bad_request: an id or query parameter that is not valid (not a plain positive integer, out of range, not allowed, unknown to the path, given twice), more than 8 parameters or a URL over 2048 characters. The message names the parameter.',
    ERROR_EXAMPLES[400],
  ),
  Unauthorized: errorAnswer(
    "unauthorized: an X-API-Key that is malformed or is not a partner's key, whatever the path: a key that is sent is never ignored. Send none to use the API as anyone may.",
    ERROR_EXAMPLES[401],
    ['WWW-Authenticate'],
  ),
  NotFound: errorAnswer(
    'not_found: a path that is not one of the 21, or an item the content API does not have (that answer is cached briefly).',
    ERROR_EXAMPLES[404],
  ),
  MethodNotAllowed: errorAnswer('method_not_allowed: the API is read-only; only GET and HEAD.', ERROR_EXAMPLES[405], ['Allow']),
  TooManyRequests: errorAnswer(
    'too_many_requests: this client has spent its budget of calls to the content API (only the request that makes the service call it spends a point; waiting for another request’s call does not). Cached, shared and stale answers are never refused.',
    ERROR_EXAMPLES[429],
    ['Retry-After', 'RateLimit', 'RateLimit-Policy'],
  ),
  BadGateway: errorAnswer(
    "upstream_invalid or upstream_status: the content API answered with something that is not valid (malformed, not the contract's shape, too large, or a status other than 200 and 404), and nothing is cached. Never passed on.",
    ERROR_EXAMPLES[502],
  ),
  ServiceUnavailable: errorAnswer(
    'upstream_unavailable: the content API cannot be reached and nothing is cached; or busy: the service sheds load for a moment.',
    ERROR_EXAMPLES[503],
    ['Retry-After'],
  ),
  GatewayTimeout: errorAnswer('upstream_timeout: the content API did not answer in time and nothing is cached.', ERROR_EXAMPLES[504]),
};

/** Each status an operation can answer with besides 200, by reference. */
export const errorResponses = {
  304: ref('responses', 'NotModified'),
  400: ref('responses', 'BadRequest'),
  401: ref('responses', 'Unauthorized'),
  404: ref('responses', 'NotFound'),
  405: ref('responses', 'MethodNotAllowed'),
  429: ref('responses', 'TooManyRequests'),
  502: ref('responses', 'BadGateway'),
  503: ref('responses', 'ServiceUnavailable'),
  504: ref('responses', 'GatewayTimeout'),
};

/** The components every operation refers to; `errorSchema` is the contract's error shape, `media` the media fields'. */
export function components(errorSchema: object, media: { MediaImage: object; MediaFile: object }) {
  return {
    schemas: {
      Error: {
        ...errorSchema,
        description: 'Every error has this shape: a stable `code` to branch on and a `message` for people (docs/product/errors.md).',
      },
      MediaImage: {
        ...media.MediaImage,
        description:
          "A content image, served from this site: `src` is a variant about 1080 px wide; any of the widths 96, 192, 384, 640, 828, 1080, 1600 and 2400 is `/_media/<width>/<version>/<ref>` (never wider than the original; AVIF, WebP or JPEG by `Accept`). A `version` other than `0` names the original's bytes, and its addresses may be kept for a year.",
      },
      MediaFile: {
        ...media.MediaFile,
        description: 'A film (MP4, WebM) or captions (WebVTT), passed through from this site with byte ranges.',
      },
    },
    headers,
    responses,
    securitySchemes: {
      [PARTNER_KEY]: {
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
        description:
          "Optional: the API is open to anyone without it. A partner's key gives the partner a budget of its own for calls to the content API (`partner` in RateLimit-Policy) instead of the one it shares with every client at its address. A key that is sent must be right: a malformed or unknown key is answered 401 on every path. Keys are issued by the group.",
      },
    },
  };
}

/** The document's introduction (Markdown): what a partner needs to know before the first call. */
export function introduction(serverUrl: string): string {
  return [
    "The public content of 明瞳眼科医疗集团: the content API's 21 read-only GET paths, validated against one contract and cached by this service.",
    '',
    `Read it at [${serverUrl}${API_DOCS_PATH}](${serverUrl}${API_DOCS_PATH}) (this document, drawn, with a panel to send requests) or take the document itself: [${OPENAPI_PATH}](${serverUrl}${OPENAPI_PATH}).`,
    '',
    '- **Answers** are envelopes `{ "data": … }`. Lists that page take `page` and `pageSize` and answer `{ items, total, page, pageSize }`.',
    '- **Errors** have one shape, `{ "error": { "code", "message" } }`: branch on `code`, show `message` to people.',
    '- **Caching**: every answer has a weak `ETag`; send it back in `If-None-Match` for a 304. `X-Cache` and `Age` say how it was served.',
    `- **From a browser**: any origin may read the API with GET and HEAD (CORS, no credentials; \`${EXPOSED_HEADERS.join('`, `')}\` are readable). A request sending \`${ALLOWED_REQUEST_HEADERS.join('`, `')}\` is preflighted; the preflight is kept ${PREFLIGHT_MAX_AGE_S / 3600} hours.`,
    "- **Budgets**: answers the caches hold are never limited. A request that makes a call to the content API spends a point of its client's budget (`RateLimit`, `RateLimit-Policy`); past it, 429 with `Retry-After`. A partner's key (`X-API-Key`) gives a budget of its own; a wrong key is a 401.",
    '- **Versions**: `info.version` is raised whenever the contract changes: the minor number for an addition, the major one for a change that could break a client.',
  ].join('\n');
}
