/**
 * `GET /api/search?q=&kind=&page=&pageSize=`: the site's search for integrators and for the
 * browser's suggestions (docs/product/search.md). It is part of the public API (api-handler.ts
 * gives it the same methods, CORS, partner keys and errors): an answer in the cache of answers
 * costs nothing; one computed now spends a point of the client's budget, as a call to the content
 * API does, and is refused while the process sheds load.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isContentError } from '../../shared/content-api.js';
import { parseSearchQuery } from '../../shared/search-query.js';
import { SEARCH_API_PATH } from '../../shared/search.js';
import type { Partner } from '../http/partner-keys.js';
import { asProblem, problem, sendProblem } from '../http/problem.js';
import { rateLimitHeaders } from '../reliability/rate-limit-headers.js';
import { sendStored } from '../http/stored-response.js';
import type { Logger } from '../observability/logger.js';
import { observe } from '../observability/request-observer.js';
import type { Admission } from '../reliability/admission.js';
import type { Budget } from '../reliability/miss-limiter.js';
import type { SearchService, StoredSearch } from './search-service.js';

/** A browser asks again each time (its ETag makes that a 304 while the index is unchanged); an edge does not keep it. */
const ANSWER_HEADERS = ['content-type', 'application/json; charset=utf-8', 'cache-control', 'public, max-age=0', 'vary', 'Accept-Encoding'];

export interface SearchEndpointDeps {
  search: SearchService;
  admission: Pick<Admission, 'admitCall' | 'budgetOf'>;
  log: Logger;
}

export function searchEndpoint({ search, admission, log }: SearchEndpointDeps) {
  const send = (req: IncomingMessage, res: ServerResponse, stored: StoredSearch, status: 'HIT' | 'MISS', budget?: Budget) => {
    observe(res, { cache: status });
    sendStored(req, res, { status: 200, body: stored.body, headers: ANSWER_HEADERS, storedAt: Date.now() }, [
      'x-cache',
      status,
      'server-timing',
      `cache;desc=${status}`,
      ...rateLimitHeaders(budget),
    ]);
  };

  return function handleSearch(req: IncomingMessage, res: ServerResponse, partner: Partner | undefined): void {
    observe(res, { route: SEARCH_API_PATH });
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const query = parseSearchQuery(new URLSearchParams(q === -1 ? '' : url.slice(q + 1)));
    if ('error' in query) {
      sendProblem(res, problem('bad_request', query.error));
      return;
    }
    const hit = search.cached(query);
    if (hit) {
      send(req, res, hit, 'HIT');
      return;
    }
    let budget: Budget | undefined;
    search
      .answer(query, async () => {
        const spent = await admission.admitCall(req, 'api', partner);
        budget = spent.budget;
        if (spent.refusal) throw spent.refusal;
      })
      .then(
        (stored) => send(req, res, stored, 'MISS', budget),
        (error: unknown) => {
          const p = asProblem(error);
          if (!isContentError(error)) log.error({ err: error }, 'search failed');
          observe(res, { cache: p.code === 'too_many_requests' || p.code === 'busy' ? 'REFUSED' : 'ERROR' });
          const limited = p.code === 'too_many_requests' ? (budget ?? admission.budgetOf(partner, p.retryAfterS ?? 1)) : undefined;
          sendProblem(res, p, rateLimitHeaders(limited));
        },
      );
  };
}
