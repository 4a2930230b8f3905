/**
 * Turns a request URL into one of the 21 content API requests, or a problem. Only these paths
 * are proxied (no open proxy); ids and query parameters are checked and written in one
 * canonical form, which is both the cache key and the upstream path.
 */
import { API_PATHS, type ApiName } from '../../shared/contract/api-paths.js';
import { pathId } from '../../shared/contract/query-params.js';
import type { ContentError } from '../../shared/content-api.js';
import { problem } from '../http/problem.js';

export interface ApiRequest {
  name: ApiName;
  /** Canonical path and query: the cache key and the upstream request. */
  key: string;
  id?: number;
  /** The checked query, defaults applied. */
  query: Record<string, number>;
}

const MAX_URL_LENGTH = 2_048;
const MAX_PARAMS = 8;

interface Matcher {
  name: ApiName;
  prefix: string;
  suffix: string;
  hasId: boolean;
}

const MATCHERS: Matcher[] = (Object.keys(API_PATHS) as ApiName[]).map((name) => {
  const [prefix, suffix = ''] = API_PATHS[name].template.split('{id}');
  return { name, prefix: prefix!, suffix, hasId: API_PATHS[name].template.includes('{id}') };
});
const EXACT = new Map(MATCHERS.filter((m) => !m.hasId).map((m) => [m.prefix, m.name]));

function matchPath(pathname: string): { name: ApiName; rawId?: string } | undefined {
  const exact = EXACT.get(pathname);
  if (exact) return { name: exact };
  for (const m of MATCHERS) {
    if (!m.hasId || !pathname.startsWith(m.prefix) || !pathname.endsWith(m.suffix)) continue;
    const rawId = pathname.slice(m.prefix.length, pathname.length - m.suffix.length);
    if (rawId.length > 0 && !rawId.includes('/')) return { name: m.name, rawId };
  }
  return undefined;
}

/** Either the canonical request or the problem to answer with. */
export function parseApiRequest(rawUrl: string): ApiRequest | ContentError {
  if (rawUrl.length > MAX_URL_LENGTH) return problem('bad_request', 'the URL is too long');
  const q = rawUrl.indexOf('?');
  const pathname = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const search = q === -1 ? '' : rawUrl.slice(q + 1);

  const match = matchPath(pathname);
  if (!match) return problem('not_found', `${pathname.slice(0, 200)} is not a content API path`);
  const spec = API_PATHS[match.name];

  let path = spec.template;
  let id: number | undefined;
  if (match.rawId !== undefined) {
    const parsedId = pathId.safeParse(match.rawId);
    if (!parsedId.success) return problem('bad_request', 'id: must be a positive integer without leading zeros');
    id = parsedId.data;
    path = spec.template.replace('{id}', String(id));
  }

  const params = new URLSearchParams(search);
  const raw = Object.create(null) as Record<string, string>;
  let count = 0;
  for (const [key, value] of params) {
    if (++count > MAX_PARAMS) return problem('bad_request', 'too many query parameters');
    if (!Object.hasOwn(spec.query.shape, key)) return problem('bad_request', `${key.slice(0, 64)}: unknown query parameter`);
    if (Object.hasOwn(raw, key)) return problem('bad_request', `${key}: given more than once`);
    raw[key] = value;
  }
  const parsed = spec.query.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return problem('bad_request', `${issue.path.join('.')}: ${issue.message}`);
  }
  const query = Object.fromEntries(
    Object.entries(parsed.data as Record<string, number | undefined>)
      .filter((entry): entry is [string, number] => entry[1] !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  const canonical = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return { name: match.name, key: canonical ? `${path}?${canonical}` : path, id, query };
}

/** The canonical request for an in-process read (server rendering); throws its problem. */
export function apiRequestFor(name: ApiName, id?: number, query?: Record<string, string | number>): ApiRequest {
  let url = API_PATHS[name].template.replace('{id}', String(id ?? ''));
  const search = new URLSearchParams(Object.entries(query ?? {}).map(([k, v]) => [k, String(v)])).toString();
  if (search) url += `?${search}`;
  const parsed = parseApiRequest(url);
  if ('key' in parsed) return parsed;
  throw parsed;
}
