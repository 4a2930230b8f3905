/**
 * The proxy API: the 21 content API paths under /api, answered by plain node:http code ahead
 * of Express, so that a cached hit costs little more than writing its bytes (docs/decisions/001).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_PATHS } from '../../shared/contract/api-paths.js';
import { isContentError, type ContentError } from '../../shared/content-api.js';
import { clientMemo } from '../http/client-memo.js';
import { SEARCH_API_PATH } from '../../shared/search.js';
import { answerPreflight } from '../http/cors.js';
import type { Partner, PartnerKeys } from '../http/partner-keys.js';
import { asProblem, problem, sendProblem } from '../http/problem.js';
import { rateLimitHeaders } from '../reliability/rate-limit-headers.js';
import { Representation } from '../http/representation.js';
import { sendStored, type StoredAnswer } from '../http/stored-response.js';
import type { Logger } from '../observability/logger.js';
import { observe } from '../observability/request-observer.js';
import { parseApiRequest, type ApiRequest } from './api-request.js';
import type { CachedAnswer, CacheStatus } from './cached-answer.js';
import type { ContentCache } from './content-cache.js';
import type { Metrics } from '../observability/metrics.js';
import type { Admission } from '../reliability/admission.js';
import type { Budget } from '../reliability/miss-limiter.js';

export interface ApiHandlerDeps {
  cache: ContentCache;
  /** The OpenAPI document, made when first asked for (its servers name the port the service listens on). */
  openApi: () => Promise<Buffer>;
  log: Logger;
  /** What a request that causes a call to the content API must pass: shedding, then its client's budget. */
  admission: Pick<Admission, 'admitCall' | 'budgetOf'>;
  /** Partners' keys: a request with one spends its partner's budget; an unknown one is refused. */
  partners: PartnerKeys;
  metrics: Metrics;
  /** The site's search (/api/search), the service's own endpoint beside the 21 paths. */
  search?: ((req: IncomingMessage, res: ServerResponse, partner: Partner | undefined) => void) | undefined;
}

const ALLOW = ['allow', 'GET, HEAD'];
/** An API key is refused with a challenge naming where it goes. */
const KEY_CHALLENGE = ['www-authenticate', 'ApiKey realm="api", header="X-API-Key"'];

/** What an answer from this process's memory says of itself: the same every time, made once. */
const HIT_PAIRS = Object.freeze(['x-cache', 'HIT', 'server-timing', 'cache;desc=HIT']);

function send(req: IncomingMessage, res: ServerResponse, answer: CachedAnswer, status: CacheStatus, budget: Budget | undefined): void {
  const fetched = status === 'MISS' || status === 'REFRESH';
  const timing = fetched ? `cache;desc=${status}, upstream;dur=${answer.upstreamMs.toFixed(1)}` : `cache;desc=${status}`;
  sendStored(req, res, answer, ['x-cache', status, 'server-timing', timing, ...rateLimitHeaders(budget)]);
}

export function createApiHandler({ cache, openApi, log, admission, partners, metrics, search }: ApiHandlerDeps) {
  let openApiAnswer: Promise<StoredAnswer> | undefined;
  const openApiDocument = (): Promise<StoredAnswer> =>
    (openApiAnswer ??= openApi().then((body) => ({
      status: 200,
      body: new Representation(body),
      headers: ['content-type', 'application/json; charset=utf-8', 'cache-control', 'public, max-age=300', 'vary', 'Accept-Encoding'],
      storedAt: Date.now(),
    })));

  // Each distinct URL is checked once; the answer (a request or a problem) is reused.
  const parsed = clientMemo<ApiRequest | ContentError>();
  function parse(url: string): ApiRequest | ContentError {
    let request = parsed.get(url);
    if (!request) {
      request = parseApiRequest(url);
      parsed.set(url, request);
    }
    return request;
  }

  async function answerWhenFetched(
    req: IncomingMessage,
    res: ServerResponse,
    request: ApiRequest,
    partner: Partner | undefined,
  ): Promise<void> {
    // Set when this request made the call, and so spent a point of its budget.
    let budget: Budget | undefined;
    try {
      const { answer, status } = await cache.get(request, async () => {
        const spent = await admission.admitCall(req, 'api', partner);
        budget = spent.budget;
        if (spent.refusal) throw spent.refusal;
      });
      const fetched = status === 'MISS' || status === 'REFRESH';
      observe(res, { cache: status, upstreamMs: fetched ? Math.round(answer.upstreamMs) : undefined });
      send(req, res, answer, status, budget);
    } catch (error) {
      const p = asProblem(error);
      if (p.code === 'internal') log.error({ err: error, key: request.key }, 'proxy failed');
      observe(res, { cache: p.code === 'too_many_requests' || p.code === 'busy' ? 'REFUSED' : 'ERROR' });
      const limited = p.code === 'too_many_requests' ? (budget ?? admission.budgetOf(partner, p.retryAfterS ?? 1)) : undefined;
      sendProblem(res, p, rateLimitHeaders(limited));
    }
  }

  return function handleApi(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      observe(res, { route: 'api' });
      if (answerPreflight(req, res)) return;
      sendProblem(res, problem('method_not_allowed', `${req.method} is not allowed; use GET or HEAD`), ALLOW);
      return;
    }
    // A key that is sent must be right, whatever is asked: a mistyped key is never taken as none.
    const partner = partners.identify(req);
    if (isContentError(partner)) {
      observe(res, { route: 'api' });
      sendProblem(res, partner, KEY_CHALLENGE);
      return;
    }
    if (partner) {
      observe(res, { partner: partner.name });
      metrics.partnerRequests(partner.name).inc();
    }
    const url = req.url ?? '/';
    if (url === '/api/openapi.json') {
      observe(res, { route: '/api/openapi.json' });
      openApiDocument().then(
        (document) => sendStored(req, res, document, []),
        (error: unknown) => {
          openApiAnswer = undefined;
          log.error({ err: error }, 'the OpenAPI document could not be made');
          sendProblem(res, asProblem(error));
        },
      );
      return;
    }
    if (search && (url === SEARCH_API_PATH || url.startsWith(`${SEARCH_API_PATH}?`))) {
      search(req, res, partner);
      return;
    }
    const request = parse(url);
    if (!('key' in request)) {
      observe(res, { route: 'api' });
      sendProblem(res, request);
      return;
    }
    // Noted before any wait, so that a visitor who leaves meanwhile is counted on this route.
    observe(res, { route: API_PATHS[request.name].template });
    const hit = cache.hit(request);
    if (hit) {
      observe(res, { cache: 'HIT' });
      sendStored(req, res, hit.answer, HIT_PAIRS);
      return;
    }
    void answerWhenFetched(req, res, request, partner);
  };
}
