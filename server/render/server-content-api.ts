/**
 * The ContentApi on the server: reads the proxy's cache in-process, no HTTP round trip. Given a
 * RenderReads, it notes every answer a render reads (for the page cache); `admit` (the render's
 * admission: shedding and the client's budget, spent once per render) is asked by the cache only
 * when a read makes a call to the content API, and throws to refuse it. Searches are answered by
 * the process's index (server/search), which `admit` pays for when a query is computed anew; a
 * page that shows results is drawn anew each time (its data is the index, which no purge names).
 */
import { isContentError, type ContentApi } from '../../shared/content-api.js';
import { problem } from '../http/problem.js';
import { apiRequestFor } from '../proxy/api-request.js';
import type { Admit } from '../proxy/cached-answer.js';
import type { ContentCache } from '../proxy/content-cache.js';
import { parseSearchQuery } from '../../shared/search-query.js';
import type { SearchService } from '../search/search-service.js';
import type { RenderReads } from './render-tracking.js';

export function serverContentApi(cache: ContentCache, reads?: RenderReads, admit?: Admit, search?: SearchService): ContentApi {
  return {
    async search(params, _signal, use = 'results') {
      if (!search) throw problem('not_found', 'search is not available here');
      const query = parseSearchQuery(
        new URLSearchParams(Object.entries(params).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]]))),
      );
      if ('error' in query) throw problem('bad_request', query.error);
      let stored;
      try {
        stored = await search.answer(query, admit);
      } catch (error) {
        reads?.noteFailure();
        if (isContentError(error) && error.retryAfterS !== undefined) reads?.noteRetryAfter(error.retryAfterS);
        throw error;
      }
      // Results depend on the index; the expert finder's choices alone (no words, no filter) are as fresh as the experts' list.
      if (query.q || query.hospital || query.specialty) reads?.noteSearch(stored.version, use === 'beside');
      return stored.answer;
    },
    changesAt(at) {
      reads?.noteChange(at);
    },
    async get(name, request = {}) {
      const apiRequest = apiRequestFor(name, request.id, request.query as Record<string, string | number>);
      let result = cache.hit(apiRequest);
      if (!result) {
        try {
          result = await cache.get(apiRequest, admit);
        } catch (error) {
          reads?.noteFailure();
          if (isContentError(error) && error.retryAfterS !== undefined) reads?.noteRetryAfter(error.retryAfterS);
          throw error;
        }
      }
      reads?.note(result);
      if (result.answer.status === 404) throw problem('not_found', `${apiRequest.key} does not exist`);
      return result.answer.data as never;
    },
  };
}
