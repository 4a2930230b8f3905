/**
 * The proxy API: the 21 content API paths under /api, answered by plain node:http code ahead
 * of Express, so that a cached hit costs little more than writing its bytes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import Negotiator from 'negotiator';
import { API_PATHS } from '../../shared/contract/api-paths.js';
import type { Config } from '../config.js';
import { asProblem, problem, sendProblem } from '../http/problem.js';
import { applyHeaders, type HeaderSet } from '../http/security-headers.js';
import { observe } from '../observability/request-observer.js';
import type { Logger } from '../observability/logger.js';
import { parseApiRequest } from './api-request.js';
import type { CachedAnswer, CacheStatus, ContentCache } from './content-cache.js';

type Encoding = 'br' | 'gzip' | 'identity';
const ENCODINGS: Encoding[] = ['br', 'gzip', 'identity'];
const encodingMemo = new Map<string, Encoding>();

/** The client's preferred encoding; the few distinct Accept-Encoding values are memoised. */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding {
  const header = acceptEncoding ?? '';
  let found = encodingMemo.get(header);
  if (!found) {
    found = (new Negotiator({ headers: { 'accept-encoding': header } }).encoding(ENCODINGS) as Encoding) ?? 'identity';
    if (encodingMemo.size < 100) encodingMemo.set(header, found);
  }
  return found;
}

/** Weak comparison (RFC 9110 section 13.1.2): If-None-Match matches on the opaque tag alone. */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === opaque);
}

export interface ApiHandlerDeps {
  cache: ContentCache;
  config: Config['cache'];
  headers: HeaderSet;
  openApi: Buffer;
  log: Logger;
}

export function createApiHandler({ cache, config, headers, openApi, log }: ApiHandlerDeps) {
  function cacheControl(answer: CachedAnswer): string {
    const maxAge = Math.floor(answer.maxAge);
    if (answer.status === 404) return `public, max-age=${maxAge}`;
    return `public, max-age=${maxAge}, stale-while-revalidate=${config.staleWhileRevalidateS}, stale-if-error=${config.staleIfErrorS}`;
  }

  function send(req: IncomingMessage, res: ServerResponse, answer: CachedAnswer, status: CacheStatus): void {
    const timing = status === 'MISS' || status === 'REFRESH'
      ? `cache;desc=${status}, upstream;dur=${answer.upstreamMs.toFixed(1)}`
      : `cache;desc=${status}`;
    res.setHeader('cache-control', cacheControl(answer));
    res.setHeader('etag', answer.etag);
    res.setHeader('age', String(Math.max(0, Math.floor((Date.now() - answer.storedAt) / 1000))));
    res.setHeader('x-cache', status);
    res.setHeader('server-timing', timing);
    res.setHeader('vary', 'Accept-Encoding');
    if (etagMatches(req.headers['if-none-match'], answer.etag)) {
      res.statusCode = 304;
      res.end();
      return;
    }
    const encoding = preferredEncoding(req.headers['accept-encoding']);
    const body = (encoding === 'br' && answer.br) || (encoding === 'gzip' && answer.gzip) || answer.body;
    if (body !== answer.body) res.setHeader('content-encoding', encoding);
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.setHeader('content-length', body.length);
    res.statusCode = answer.status;
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  return async function handleApi(req: IncomingMessage, res: ServerResponse): Promise<void> {
    applyHeaders(res, headers);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      observe(res, { route: 'api' });
      sendProblem(res, problem('method_not_allowed', `${req.method} is not allowed; use GET or HEAD`), { allow: 'GET, HEAD' });
      return;
    }
    const url = req.url ?? '/';
    if (url === '/api/openapi.json') {
      observe(res, { route: '/api/openapi.json' });
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': openApi.length,
        'cache-control': 'public, max-age=300',
      });
      res.end(req.method === 'HEAD' ? undefined : openApi);
      return;
    }
    const request = parseApiRequest(url);
    if (!('key' in request)) {
      observe(res, { route: 'api' });
      sendProblem(res, request);
      return;
    }
    const route = API_PATHS[request.name].template;
    try {
      const { answer, status } = await cache.get(request);
      observe(res, { route, cache: status, ...(status === 'MISS' || status === 'REFRESH' ? { upstreamMs: Math.round(answer.upstreamMs) } : {}) });
      send(req, res, answer, status);
    } catch (error) {
      const p = asProblem(error);
      if (p.code === 'internal') log.error({ err: error, key: request.key }, 'proxy failed');
      observe(res, { route, cache: 'ERROR' });
      sendProblem(res, p);
    }
  };
}
