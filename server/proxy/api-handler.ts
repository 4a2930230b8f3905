/**
 * The proxy API: the 21 content API paths under /api, answered by plain node:http code ahead
 * of Express, so that a cached hit costs little more than writing its bytes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import { API_PATHS } from '../../shared/contract/api-paths.js';
import type { Config } from '../config.js';
import { asProblem, problem, sendProblem } from '../http/problem.js';
import { etagMatches } from '../http/representation.js';
import { applyHeaders, type HeaderSet } from '../http/security-headers.js';
import { observe, requestIdOf } from '../observability/request-observer.js';
import type { Logger } from '../observability/logger.js';
import { parseApiRequest, type ApiRequest } from './api-request.js';
import type { ContentError } from '../../shared/content-api.js';
import type { CachedAnswer, CacheStatus, ContentCache } from './content-cache.js';

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

  // Headers go out in one writeHead with a flat list: no per-header bookkeeping on the hot path.
  const securityPairs = Object.entries(headers).flat();

  function send(req: IncomingMessage, res: ServerResponse, answer: CachedAnswer, status: CacheStatus): void {
    const timing = status === 'MISS' || status === 'REFRESH'
      ? `cache;desc=${status}, upstream;dur=${answer.upstreamMs.toFixed(1)}`
      : `cache;desc=${status}`;
    const out = [
      ...securityPairs,
      'x-request-id', requestIdOf(res),
      'cache-control', cacheControl(answer),
      'etag', answer.json.etag,
      'age', String(Math.max(0, Math.floor((Date.now() - answer.storedAt) / 1000))),
      'x-cache', status,
      'server-timing', timing,
      'vary', 'Accept-Encoding',
    ];
    if (etagMatches(req.headers['if-none-match'], answer.json.etag)) {
      res.writeHead(304, out).end();
      return;
    }
    const { body, encoding } = answer.json.pick(req.headers['accept-encoding']);
    if (encoding) out.push('content-encoding', encoding);
    out.push('content-type', 'application/json; charset=utf-8', 'content-length', String(body.length));
    res.writeHead(answer.status, out).end(req.method === 'HEAD' ? undefined : body);
  }

  // Each distinct URL is checked once; the answer (a request or a problem) is reused.
  const parsed = new LRUCache<string, ApiRequest | ContentError>({ max: 10_000 });
  function parse(url: string): ApiRequest | ContentError {
    let request = parsed.get(url);
    if (!request) {
      request = parseApiRequest(url);
      parsed.set(url, request);
    }
    return request;
  }

  function fail(res: ServerResponse, error: ContentError, extra?: Record<string, string>): void {
    applyHeaders(res, headers);
    res.setHeader('x-request-id', requestIdOf(res));
    sendProblem(res, error, extra);
  }

  async function answerWhenFetched(req: IncomingMessage, res: ServerResponse, request: ApiRequest): Promise<void> {
    try {
      const { answer, status } = await cache.get(request);
      const fetched = status === 'MISS' || status === 'REFRESH';
      observe(res, { cache: status, upstreamMs: fetched ? Math.round(answer.upstreamMs) : undefined });
      send(req, res, answer, status);
    } catch (error) {
      const p = asProblem(error);
      if (p.code === 'internal') log.error({ err: error, key: request.key }, 'proxy failed');
      observe(res, { cache: 'ERROR' });
      fail(res, p);
    }
  }

  return function handleApi(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      observe(res, { route: 'api' });
      fail(res, problem('method_not_allowed', `${req.method} is not allowed; use GET or HEAD`), { allow: 'GET, HEAD' });
      return;
    }
    const url = req.url ?? '/';
    if (url === '/api/openapi.json') {
      observe(res, { route: '/api/openapi.json' });
      applyHeaders(res, headers);
      res.setHeader('x-request-id', requestIdOf(res));
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': openApi.length,
        'cache-control': 'public, max-age=300',
      });
      res.end(req.method === 'HEAD' ? undefined : openApi);
      return;
    }
    const request = parse(url);
    if (!('key' in request)) {
      observe(res, { route: 'api' });
      fail(res, request);
      return;
    }
    // Noted before any wait, so that a visitor who leaves meanwhile is counted on this route.
    observe(res, { route: API_PATHS[request.name].template });
    const hit = cache.hit(request);
    if (hit) {
      observe(res, { cache: 'HIT' });
      send(req, res, hit.answer, 'HIT');
      return;
    }
    void answerWhenFetched(req, res, request);
  };
}
