/** The ContentApi on the server: reads the proxy's cache in-process, no HTTP round trip. */
import type { ContentApi } from '../../shared/content-api.js';
import { apiRequestFor } from '../proxy/api-request.js';
import type { ContentCache } from '../proxy/content-cache.js';

export function serverContentApi(cache: ContentCache): ContentApi {
  return {
    get: (name, request = {}) =>
      cache.getData(apiRequestFor(name, request.id, request.query as Record<string, string | number>)) as never,
  };
}
