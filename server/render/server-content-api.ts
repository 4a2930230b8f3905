/**
 * The ContentApi on the server: reads the proxy's cache in-process, no HTTP round trip. Given a
 * RenderReads, it notes every answer a render reads (for the page cache); `admit` (the render's
 * admission: shedding and the client's budget, spent once per render) is asked by the cache only
 * when a read makes a call to the content API, and throws to refuse it.
 */
import { isContentError, type ContentApi } from '../../shared/content-api.js';
import { problem } from '../http/problem.js';
import { apiRequestFor } from '../proxy/api-request.js';
import type { Admit } from '../proxy/cached-answer.js';
import type { ContentCache } from '../proxy/content-cache.js';
import type { RenderReads } from './render-tracking.js';

export function serverContentApi(cache: ContentCache, reads?: RenderReads, admit?: Admit): ContentApi {
  return {
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
