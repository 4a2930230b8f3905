/**
 * The service, assembled: the content API (external, or embedded on loopback), the upstream
 * pool, the cache, and the layers behind the front door (the proxy API, the page cache,
 * Express). Used by server/main.ts and by the tests, which start it on a free port.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HEAD_SCRIPT } from '../client/head-script.js';
import { createApp } from './app.js';
import { builtApp, type AppSource } from './app-source.js';
import type { Config } from './config.js';
import { startEmbeddedApi, type EmbeddedApi } from './embedded-api/embedded-api.js';
import type { Publishing } from './embedded-api/editor.js';
import { adminRoutes } from './admin/admin-routes.js';
import { localBus, Purger, type PurgeBus } from './fleet/purge.js';
import { redisBus } from './fleet/purge-bus.js';
import { RedisLink } from './fleet/redis-link.js';
import { SharedCache } from './fleet/shared-cache.js';
import { createFrontDoor } from './http/front-door.js';
import { guardConnections, serverTimeouts } from './http/connection-guard.js';
import { securityHeaders } from './http/security-headers.js';
import { TrustedProxies } from './http/trusted-proxies.js';
import { MediaEndpoint } from './media/media-endpoint.js';
import { createLogger, type Logger } from './observability/logger.js';
import { createMetrics, type Metrics } from './observability/metrics.js';
import { operatorApp, operatorRoutes, type OperatorDeps } from './observability/operator-routes.js';
import { RecentErrors } from './observability/recent-errors.js';
import { createRequestObserver } from './observability/request-observer.js';
import { startTracing } from './observability/tracing.js';
import { createApiHandler } from './proxy/api-handler.js';
import { apiRequestFor } from './proxy/api-request.js';
import { ContentCache } from './proxy/content-cache.js';
import { buildOpenApi } from './proxy/openapi.js';
import { createAdmission } from './reliability/admission.js';
import { PageCache } from './render/page-cache.js';
import { createPageHandler } from './render/page-handler.js';
import { variantOf } from './render/page-variant.js';
import { seoRoutes } from './render/seo-routes.js';
import { serverContentApi } from './render/server-content-api.js';
import { UpstreamClient } from './upstream/upstream-client.js';

export interface ServiceOptions {
  /** Where the app comes from; by default the build in dist/client, if any. */
  app?: AppSource;
  logger?: Logger;
  /** The text /metrics answers with; by default this process's own (a worker asks the primary for all of them). */
  metricsText?: (registry: Metrics['registry']) => Promise<string>;
  /** The recent warnings and errors the logger keeps, for /status. */
  recentErrors?: RecentErrors;
  /** How a purge reaches the fleet's other processes without Redis (a worker's goes through the primary). */
  purgeBus?: PurgeBus;
}

export interface Service {
  server: Server;
  cache: ContentCache;
  purger: Purger;
  /** The media endpoint (/_media), and `describe()` for pages. */
  media: MediaEndpoint;
  metrics: Metrics;
  log: Logger;
  upstreamUrl: string;
  /** Start listening (and on METRICS_PORT, if set); resolves with the public base URL. */
  listen(port?: number, host?: string): Promise<string>;
  /** Stop accepting, let in-flight requests finish, then release the upstream. */
  close(): Promise<void>;
}

/**
 * With WEBHOOK_SECRET, the embedded content API can be edited and sends its publish events to
 * the service it serves (docs/product/publishing.md).
 */
export function embeddedPublishing(config: Config, site: () => string | undefined): Publishing | undefined {
  if (!config.WEBHOOK_SECRET) return undefined;
  return { secret: config.WEBHOOK_SECRET, webhooks: () => [site()].filter((u) => u !== undefined).map((u) => `${u}/admin/webhook`) };
}

/** How this machine reaches a server listening at an address: over loopback when it listens on every address. */
export function reachableUrl(address: string, port: number): string {
  const host = ['0.0.0.0', '::', '[::]'].includes(address) ? '127.0.0.1' : address;
  return `http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}:${port}`;
}

function selfUrl(server: Server): string | undefined {
  const address = server.address() as AddressInfo | null;
  return address ? reachableUrl(address.address, address.port) : undefined;
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
    embedded = await startEmbeddedApi({ port: config.EMBEDDED_API_PORT, publishing: embeddedPublishing(config, () => selfUrl(server)) });
    upstreamUrl = embedded.url;
    log.info({ url: upstreamUrl }, 'no UPSTREAM_URL: embedded content API started');
  }
  const metrics = createMetrics({ redis: config.REDIS_URL !== undefined });
  const redis = config.REDIS_URL ? new RedisLink({ url: config.REDIS_URL, budgetMs: config.REDIS_TIMEOUT_MS, log, metrics }) : undefined;
  redis?.start();
  const trusted = new TrustedProxies(config.TRUSTED_PROXIES ?? []);
  // Off (undefined, and OpenTelemetry not loaded) unless an OTLP endpoint is configured.
  const tracing = await startTracing({ config, log, trusted });
  const admission = createAdmission({ config, redis, trusted, log, metrics });
  const upstream = new UpstreamClient({
    url: upstreamUrl,
    ...config,
    onCircuitChange: (state) => {
      metrics.circuitOpen.set(state === 'closed' ? 0 : 1);
      log[state === 'open' ? 'warn' : 'info']({ state }, `circuit breaker ${state}`);
    },
    onRefused: (why) => admission.upstreamRefused(why),
    tracing,
  });
  metrics.stats.upstreamInFlight = () => upstream.gate.inFlight;
  metrics.stats.upstreamQueued = () => upstream.gate.queued;
  const shared = redis
    ? new SharedCache(redis, Math.max(config.CACHE_STALE_WHILE_REVALIDATE_S, config.CACHE_STALE_IF_ERROR_S) * 1000)
    : undefined;
  const cache = new ContentCache({ upstream, config, metrics, log, shared, tracing });
  const headScriptHash = `sha256-${createHash('sha256').update(HEAD_SCRIPT).digest('base64')}`;
  // Development injects Vite's client and React's refresh preamble as inline scripts.
  const headers = securityHeaders([headScriptHash], { csp: !source.development });
  const api = serverContentApi(cache);
  // No page cache in development: an edit must show on the next request.
  const pageCache =
    config.PAGE_CACHE_MAX_BYTES > 0 && !source.development ? new PageCache(config.PAGE_CACHE_MAX_BYTES, trusted, metrics) : undefined;

  const media = new MediaEndpoint({
    config,
    contentApiUrl: upstreamUrl,
    metrics,
    log,
    beforeOriginFetch: (req) => admission.admitMiss(req, 'api'),
  });
  const bus = redis ? redisBus(redis, log) : (options.purgeBus ?? localBus());
  const purger = new Purger({ cache, pageCache, media, shared, bus, edges: config.EDGE_PURGE_URLS ?? [], log, metrics });

  const port = () => (server.address() as AddressInfo | null)?.port ?? config.PORT;
  const publicOrigin = () => config.PUBLIC_ORIGIN ?? `http://localhost:${port()}`;
  const operator: OperatorDeps = {
    metricsText: () => (options.metricsText ? options.metricsText(metrics.registry) : metrics.registry.metrics()),
    contentType: metrics.registry.contentType,
    token: config.METRICS_TOKEN,
    recentErrors,
    log,
  };
  const app = createApp({
    source,
    log,
    operatorRoutes: config.METRICS_PORT === undefined ? operatorRoutes(operator, false) : undefined,
    extraRoutes: (app) => {
      seoRoutes(api, publicOrigin, log)(app);
      adminRoutes({ purger, purgeToken: config.PURGE_TOKEN, webhookSecret: config.WEBHOOK_SECRET, shared })(app);
    },
    readiness: async () => {
      if (admission.busy) return 'busy';
      if (cache.warm) return 'ready';
      try {
        await cache.get(apiRequestFor('contactUs'));
        return 'ready';
      } catch {
        return 'not ready';
      }
    },
    pages: createPageHandler({
      renderer: () => source.renderer(),
      cache,
      assets: source.assets,
      headScript: HEAD_SCRIPT,
      publicOrigin,
      pageCache,
      transformHead: source.transformHead,
      trusted,
      overloaded: () => admission.overloaded(),
      admitMiss: (req, kind) => admission.admitMiss(req, kind),
      windows: config,
      log,
      tracing,
    }),
  });
  const frontDoor = createFrontDoor(headers, createRequestObserver(log, metrics, tracing && ((res) => tracing.traceIdOf(res))), {
    api: createApiHandler({
      cache,
      openApi: Buffer.from(JSON.stringify(buildOpenApi())),
      log,
      admitMiss: (req, kind) => admission.admitMiss(req, kind),
    }),
    cachedPage: !pageCache
      ? undefined
      : tracing
        ? (req, res) => {
            const served = pageCache.serve(req, res);
            if (served) tracing.pageCacheHit(res, variantOf(req, trusted));
            return served;
          }
        : (req, res) => pageCache.serve(req, res),
    media: media.handle,
    app,
  });
  const server = createServer(serverTimeouts(config), tracing ? tracing.serve(frontDoor) : frontDoor);
  server.keepAliveTimeout = 65_000;
  const guard = guardConnections(server, { config, trusted, metrics, log });
  metrics.stats.ready = () => (admission.busy || !cache.warm ? 0 : 1);
  // The internal listener for operators (METRICS_PORT), apart from the public port.
  const operatorServer = config.METRICS_PORT === undefined ? undefined : createServer(operatorApp(operator));

  return {
    server,
    cache,
    purger,
    media,
    metrics,
    log,
    upstreamUrl,
    async listen(listenPort = config.PORT, host = config.HOST) {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(listenPort, host, resolve);
      });
      if (operatorServer) {
        await new Promise<void>((resolve, reject) => {
          operatorServer.once('error', reject);
          operatorServer.listen(config.METRICS_PORT, host, resolve);
        });
      }
      const address = server.address() as AddressInfo;
      const shownHost = address.address.includes(':') ? `[${address.address}]` : address.address;
      return `http://${shownHost}:${address.port}`;
    },
    async close() {
      guard.stop();
      admission.stop();
      operatorServer?.close();
      operatorServer?.closeAllConnections();
      await new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        // Keep-alive connections whose last request finishes after this point are closed as
        // they fall idle; close() alone waits for clients to hang up.
        const sweep = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearInterval(sweep);
          resolve();
        });
        server.closeIdleConnections();
      });
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
