/**
 * The second step of the service (service.ts): the content and what is kept of it. The shared
 * tier (Redis, or the primary for one machine's workers), the answers' cache, pictures, search,
 * the page cache, share cards, purges, and the search engines told of a publish; each bounded
 * part takes its share of the memory budget.
 */
import type { Config } from './settings/config.js';
import { Purger } from './admin/purge.js';
import { localBus } from './fleet/purge-message.js';
import { redisBus } from './fleet/purge-bus.js';
import { RedisTier } from './fleet/redis-tier.js';
import { PurgeGeneration } from './fleet/purge-generation.js';
import { MediaEndpoint } from './media/media-endpoint.js';
import { ContentReader } from './proxy/content-reader.js';
import { ContentCache } from './proxy/content-cache.js';
import { PageCache } from './render/page-cache.js';
import { serverContentApi } from './render/server-content-api.js';
import { PublishNotifier } from './seo/publish-notifier.js';
import { searchEngines } from './seo/search-engines.js';
import { ShareCards } from './seo/share-card.js';
import { SearchService } from './search/search-service.js';
import type { Core } from './service-core.js';

export type Content = ReturnType<typeof createContent>;

/** `publicOrigin`: the site's public origin (PUBLIC_ORIGIN, else this service on localhost). */
export function createContent(config: Config, core: Core, publicOrigin: () => string) {
  const { log, metrics, memory, redis, link, admission, upstream, source } = core;
  const { shares } = memory.budget;
  // What every process of the service shares: Redis for a fleet, the primary for one machine's workers.
  const shared = redis
    ? new RedisTier(redis, Math.max(config.CACHE_STALE_WHILE_REVALIDATE_S, config.CACHE_STALE_IF_ERROR_S) * 1000)
    : link?.tier;
  // The purges this process has applied, counted: one count for the answers and the pages.
  const purges = new PurgeGeneration();
  const media = new MediaEndpoint({
    config,
    memory: { maxBytes: shares.media, ...memory.budget.image, room: memory.room },
    contentApiUrl: core.upstreamUrl,
    metrics,
    log,
    // Fetching an original nothing holds is a call that costs an origin: the client's budget pays for it.
    beforeOriginFetch: async (req) => (await admission.admitCall(req, 'api')).refusal,
  });
  const reader = new ContentReader({ policy: media.policy, describe: (source, options) => media.describe(source, options), metrics, log });
  const cache = new ContentCache({ upstream, reader, config, maxBytes: shares.content, metrics, log, shared, purges });
  const api = serverContentApi(cache);
  const search = new SearchService({ api, log, metrics, firstBuild: config.SEARCH_INDEX, answersMaxBytes: shares.search });
  // No page cache in development: an edit must show on the next request.
  const pageCache = shares.pages > 0 && !source.development ? new PageCache(shares.pages, core.trusted, metrics, purges) : undefined;
  const bus = redis ? redisBus(redis, log) : (link?.bus ?? localBus());
  const edges = config.EDGE_PURGE_URLS ?? [];
  const purger = new Purger({ cache, pageCache, purges, media, shared, bus, edges, log, metrics, applied: search.changed });
  const cards = new ShareCards(
    () => new URL(publicOrigin()).host,
    shares['share-cards'],
    (key, ms) => log.info({ key, ms: Math.round(ms) }, 'share card drawn'),
  );
  // Search engines are told of public addresses only: the configuration requires PUBLIC_ORIGIN for them.
  const origin = config.PUBLIC_ORIGIN;
  const notifier = new PublishNotifier(origin ? searchEngines(config, origin) : [], api, origin ?? '', log);
  memory.watch({ content: cache, pages: pageCache, media, 'share-cards': cards, search });
  return { shared, media, cache, api, search, pageCache, bus, purger, cards, notifier };
}
