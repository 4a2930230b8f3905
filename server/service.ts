/**
 * The service, assembled: the content API (external, or embedded on loopback), the upstream
 * pool, the cache, and the layers behind the front door (the proxy API, the page cache,
 * Express). Used by server/main.ts and by the tests, which start it on a free port.
 */
import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HEAD_SCRIPT } from '../shared/site/head-script.js';
import { createApp } from './app.js';
import { createRefusal } from './render/refusal.js';
import { readiness } from './readiness.js';
import { builtApp, type AppSource } from './app-source.js';
import type { Config } from './settings/config.js';
import { memoryBudget, type MemoryBudget } from './settings/memory-budget.js';
import { memoryWatch } from './memory.js';
import { startEmbeddedApi, type EmbeddedApi } from './embedded-api/embedded-api.js';
import { embeddedPublishing } from './embedded-api/editor.js';
import { adminRoutes } from './admin/admin-routes.js';
import type { PrimaryLink, ServiceReport } from './fleet/primary-link.js';
import { Purger } from './admin/purge.js';
import { localBus } from './fleet/purge-message.js';
import { redisBus } from './fleet/purge-bus.js';
import { RedisLink } from './reliability/redis-link.js';
import { RedisTier } from './fleet/redis-tier.js';
import { createFrontDoor } from './http/front-door.js';
import { FairTurns } from './http/fair-turns.js';
import { guardConnections } from './http/connection-guard.js';
import { baseUrlOf, closeGracefully, listenOn, operatorListener, publicServer, selfUrl } from './listeners.js';
import { apiDocsHeaders, apiHeaders, securityHeaders } from './http/security-headers.js';
import { PartnerKeys } from './http/partner-keys.js';
import { TrustedProxies } from './http/trusted-proxies.js';
import { UntrustedForwarders, warnUntrustedForwarder } from './http/untrusted-forwarders.js';
import { PurgeGeneration } from './fleet/purge-generation.js';
import { MediaEndpoint } from './media/media-endpoint.js';
import { ContentReader } from './proxy/content-reader.js';
import { createLogger, type Logger } from './observability/logger.js';
import { createMetrics, type Metrics } from './observability/metrics.js';
import { operatorApp, operatorRoutes, type OperatorDeps } from './operations/operator-routes.js';
import { RecentErrors } from './observability/recent-errors.js';
import { serviceReports } from './operations/service-report.js';
import { createRequestObserver } from './observability/request-observer.js';
import { createRumMetrics } from './rum/rum-metrics.js';
import { rumRoutes } from './rum/rum-receiver.js';
import { startTracing } from './observability/tracing.js';
import { createApiDocsPage } from './api-docs/api-docs-page.js';
import { createApiHandler } from './proxy/api-handler.js';
import { ContentCache } from './proxy/content-cache.js';
import { buildOpenApi } from './api-docs/openapi.js';
import { createAdmission } from './reliability/admission.js';
import { RenderLanes } from './reliability/render-lanes.js';
import { PageCache } from './render/page-cache.js';
import { createPageHandler } from './render/page-handler.js';
import { seoRoutes } from './render/seo-routes.js';
import { PublishNotifier } from './seo/publish-notifier.js';
import { searchEngines } from './seo/search-engines.js';
import { shareCardRoutes } from './render/share-card-routes.js';
import { ShareCards } from './seo/share-card.js';
import { serverContentApi } from './render/server-content-api.js';
import { searchEndpoint } from './search/search-api.js';
import { searchExample } from './api-docs/search-openapi.js';
import { SearchService } from './search/search-service.js';
import { UpstreamClient } from './upstream/upstream-client.js';

export interface ServiceOptions {
  /** Where the app comes from; by default the build in dist/client, if any. */
  app?: AppSource;
  logger?: Logger;
  /** The recent warnings and errors the logger keeps, for /status. */
  recentErrors?: RecentErrors;
  /**
   * A worker's line to its primary (fleet/primary-link.ts): the machine's shared tier without
   * Redis, purges to the other workers, one readiness, and /metrics and /status for all workers.
   */
  link?: PrimaryLink;
  /** This process's memory budget (main.ts: its slice of the machine's limit); by default a lone process's. */
  budget?: MemoryBudget;
}

export interface Service {
  server: Server;
  cache: ContentCache;
  purger: Purger;
  /** The media endpoint (/_media), and `describe()` for pages. */
  media: MediaEndpoint;
  metrics: Metrics;
  /** The whole service's state for operators (with workers, gathered from all of them). */
  report(): Promise<ServiceReport>;
  log: Logger;
  upstreamUrl: string;
  /** Start listening (and on METRICS_PORT, if set); resolves with the public base URL. */
  listen(port?: number, host?: string): Promise<string>;
  /** Stop accepting, let in-flight requests finish, then release the upstream. */
  close(): Promise<void>;
}

export async function createService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const recentErrors = options.logger ? options.recentErrors : (options.recentErrors ?? new RecentErrors());
  const log = options.logger ?? createLogger(config.LOG_LEVEL, recentErrors);
  const source = options.app ?? builtApp();
  // The render module loaded now, not by the first visitor (whose wait would also read as overload).
  if (!source.development) await source.renderer();
  let embedded: EmbeddedApi | undefined;
  let upstreamUrl = config.UPSTREAM_URL;
  if (!upstreamUrl) {
    embedded = await startEmbeddedApi({
      port: config.EMBEDDED_API_PORT,
      publishing: embeddedPublishing(config.WEBHOOK_SECRET, () => selfUrl(server)),
    });
    upstreamUrl = embedded.url;
    log.info({ url: upstreamUrl }, 'no UPSTREAM_URL: embedded content API started');
  }
  const metrics = createMetrics({ redis: config.REDIS_URL !== undefined });
  const { budget, ...memory } = memoryWatch(options.budget ?? memoryBudget(config), { metrics, log });
  const rumMetrics = createRumMetrics(metrics.registry);
  const redis = config.REDIS_URL ? new RedisLink({ url: config.REDIS_URL, budgetMs: config.REDIS_TIMEOUT_MS, log, metrics }) : undefined;
  redis?.start();
  const trusted = new TrustedProxies(config.TRUSTED_PROXIES ?? []);
  // Off (undefined, and OpenTelemetry not loaded) unless an OTLP endpoint is configured.
  const tracing = await startTracing({ config, log, trusted, propagateTo: [upstreamUrl, ...(config.MEDIA_ORIGINS ?? [])] });
  const link = options.link;
  const partners = new PartnerKeys(config.API_KEYS ?? []);
  const admission = createAdmission({ config, redis, trusted, log, metrics, onBusy: link && ((busy) => link.state({ busy })) });
  const upstream = new UpstreamClient({
    url: upstreamUrl,
    ...config,
    onCircuitChange: (state) => {
      metrics.circuitOpen.set(state === 'closed' ? 0 : 1);
      log[state === 'open' ? 'warn' : 'info']({ state }, `circuit breaker ${state}`);
    },
    onRefused: (why) => admission.upstreamRefused(why),
    registry: metrics.registry,
  });
  // What every process of the service shares: Redis for a fleet, the primary for one machine's workers.
  const shared = redis
    ? new RedisTier(redis, Math.max(config.CACHE_STALE_WHILE_REVALIDATE_S, config.CACHE_STALE_IF_ERROR_S) * 1000)
    : link?.tier;
  // The purges this process has applied, counted: one count for the answers and the pages.
  const purges = new PurgeGeneration();
  const media = new MediaEndpoint({
    config,
    memory: { maxBytes: budget.shares.media, ...budget.image, room: memory.room },
    contentApiUrl: upstreamUrl,
    metrics,
    log,
    // Fetching an original nothing holds is a call that costs an origin: the client's budget pays for it.
    beforeOriginFetch: async (req) => (await admission.admitCall(req, 'api')).refusal,
  });
  const reader = new ContentReader({ policy: media.policy, describe: (source, options) => media.describe(source, options), metrics, log });
  const cache = new ContentCache({ upstream, reader, config, maxBytes: budget.shares.content, metrics, log, shared, purges });
  const headScriptHash = `sha256-${createHash('sha256').update(HEAD_SCRIPT).digest('base64')}`;
  // Development injects Vite's client and React's refresh preamble as inline scripts.
  const pageHeaders = securityHeaders([headScriptHash], { csp: !source.development });
  const api = serverContentApi(cache);
  const search = new SearchService({ api, log, metrics, firstBuild: config.SEARCH_INDEX, answersMaxBytes: budget.shares.search });
  // No page cache in development: an edit must show on the next request.
  const lanes = new RenderLanes(config.RENDERS_PER_CLIENT, config.MAX_CONNECTIONS_PER_CLIENT, trusted, (why) => admission.laneRefused(why));
  const pageCache =
    budget.shares.pages > 0 && !source.development ? new PageCache(budget.shares.pages, trusted, metrics, purges) : undefined;
  const bus = redis ? redisBus(redis, log) : (link?.bus ?? localBus());
  const edges = config.EDGE_PURGE_URLS ?? [];
  const purger = new Purger({ cache, pageCache, purges, media, shared, bus, edges, log, metrics, applied: search.changed });

  const port = () => (server.address() as AddressInfo | null)?.port ?? config.PORT;
  const publicOrigin = () => config.PUBLIC_ORIGIN ?? `http://localhost:${port()}`;
  // Peers sending X-Forwarded-For without being trusted: warned of once (with workers, by their primary).
  const forwarders = new UntrustedForwarders((address) => (link ? link.forwarder(address) : warnUntrustedForwarder(log, address)));
  const serviceReport = serviceReports({ metrics, admission, forwarders, recentErrors, link, zeroResults: () => search.zeroResults() });
  const cards = new ShareCards(
    () => new URL(publicOrigin()).host,
    budget.shares['share-cards'],
    (key, ms) => log.info({ key, ms: Math.round(ms) }, 'share card drawn'),
  );
  // Search engines are told of public addresses only: the configuration requires PUBLIC_ORIGIN for them.
  const notifier = new PublishNotifier(
    config.PUBLIC_ORIGIN ? searchEngines(config, config.PUBLIC_ORIGIN) : [],
    api,
    config.PUBLIC_ORIGIN ?? '',
    log,
  );
  memory.watch({ content: cache, pages: pageCache, media, 'share-cards': cards, search });
  const operator: OperatorDeps = {
    metricsText: async () => (link ? (await serviceReport()).metricsText : metrics.registry.metrics()),
    report: serviceReport,
    contentType: metrics.registry.contentType,
    token: config.METRICS_TOKEN,
    log,
  };
  const pages = createPageHandler({
    renderer: () => source.renderer(),
    cache,
    assets: source.assets,
    headScript: HEAD_SCRIPT,
    rumSampleRate: config.RUM_SAMPLE_RATE,
    publicOrigin,
    pageCache,
    transformHead: source.transformHead,
    trusted,
    admission,
    lanes,
    firstScreen: (srcsets) => media.ahead.page(srcsets),
    windows: config,
    log,
    search,
  });
  const app = createApp({
    source,
    log,
    secureCookies: config.PUBLIC_ORIGIN?.startsWith('https:') === true,
    operatorRoutes: config.METRICS_PORT === undefined ? operatorRoutes(operator, false) : undefined,
    extraRoutes: (app) => {
      seoRoutes(api, publicOrigin, log, { indexNowKey: config.INDEXNOW_KEY })(app);
      shareCardRoutes({
        cache,
        cards,
        overloaded: () => admission.overloaded(),
        admission,
        windows: config,
        log,
      })(app);
      rumRoutes({ config, trusted, metrics: rumMetrics, log })(app);
      adminRoutes({
        purger,
        purgeToken: config.PURGE_TOKEN,
        webhookSecret: config.WEBHOOK_SECRET,
        shared,
        published: (event) => notifier.announce(event),
      })(app);
    },
    readiness: readiness({ admission, cache, link, registry: metrics.registry }),
    pages,
  });
  // The reference page sends requests to the document's server: PUBLIC_ORIGIN, else this service on localhost.
  const documentServer = config.PUBLIC_ORIGIN ? new URL(config.PUBLIC_ORIGIN).origin : 'http://localhost:*';
  const headers = { pages: pageHeaders, api: apiHeaders(pageHeaders), apiDocs: apiDocsHeaders(pageHeaders, [documentServer]) };
  const observer = createRequestObserver(log, metrics, tracing && ((res) => tracing.traceIdOf(res)));
  const frontDoor = createFrontDoor(
    headers,
    observer,
    {
      apiDocs: createApiDocsPage(source.apiReferenceScript),
      api: createApiHandler({
        cache,
        openApi: async () => Buffer.from(JSON.stringify(buildOpenApi({ serverUrl: publicOrigin(), searchExample: await searchExample() }))),
        log,
        admission,
        partners,
        metrics,
        search: searchEndpoint({ search, admission, log }),
      }),
      cachedPage: pageCache && ((req, res) => pageCache.serve(req, res)),
      media: media.handle,
      app,
      refuse: createRefusal(pages),
    },
    { maxUrlBytes: config.MAX_URL_BYTES, turns: new FairTurns(config.REQUESTS_PER_TURN, trusted) },
  );
  const served = tracing ? tracing.serve(frontDoor) : frontDoor;
  const server = publicServer(config, served, { trusted, metrics, forwarders });
  const guard = guardConnections(server, { config, trusted, metrics, log });
  // A worker tells its primary when it holds answers, for the machine's readiness.
  const warmth = link && setInterval(() => link.state({ warm: cache.warm }), 500).unref();
  // The operators' own listener (METRICS_PORT), behind a front door of its own: ids, headers, request line, metrics.
  const operatorServer =
    config.METRICS_PORT === undefined
      ? undefined
      : operatorListener(config, createFrontDoor(headers, observer, { app: operatorApp(operator) }));
  return {
    server,
    cache,
    purger,
    media,
    metrics,
    report: serviceReport,
    log,
    upstreamUrl,
    async listen(listenPort = config.PORT, host = config.HOST) {
      await listenOn(server, listenPort, host);
      if (operatorServer) await listenOn(operatorServer, config.METRICS_PORT, host);
      return baseUrlOf(server);
    },
    async close() {
      clearInterval(warmth);
      memory.stop();
      search.stop();
      guard.stop();
      admission.stop();
      operatorServer?.close();
      operatorServer?.closeAllConnections();
      await closeGracefully(server);
      await notifier.close();
      await upstream.close();
      await media.close();
      purger.close();
      await bus.close();
      await redis?.close();
      await embedded?.close();
      await source.close();
      // The spans of the last requests, sent within the shutdown budget.
      await tracing?.shutdown();
    },
  };
}
