/**
 * The service, assembled: the content API (external, or embedded on loopback), the upstream
 * pool, the cache, the proxy API ahead of Express, and the pages. Used by server/index.ts and
 * by the tests, which start it on a free port.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ViteDevServer } from 'vite';
import type { AppRenderer } from '../client/entry-server.js';
import { HEAD_SCRIPT } from '../client/head-script.js';
import { createApp } from './app.js';
import type { Config } from './config.js';
import { startEmbeddedApi, type EmbeddedApi } from './embedded-api/embedded-api.js';
import { problem, sendProblem } from './http/problem.js';
import { applyHeaders, securityHeaders } from './http/security-headers.js';
import { createLogger, type Logger } from './observability/logger.js';
import { createMetrics, type Metrics } from './observability/metrics.js';
import { createRequestObserver } from './observability/request-observer.js';
import { createApiHandler } from './proxy/api-handler.js';
import { apiRequestFor } from './proxy/api-request.js';
import { ContentCache } from './proxy/content-cache.js';
import { buildOpenApi } from './proxy/openapi.js';
import { devClientAssets, readClientAssets } from './render/client-assets.js';
import { PageCache } from './render/page-cache.js';
import { createPageHandler } from './render/page-handler.js';
import { seoRoutes } from './render/seo-routes.js';
import { serverContentApi } from './render/server-content-api.js';
import { UpstreamClient } from './upstream/upstream-client.js';

export interface ServiceOptions {
  /** dist/client of the production build (its manifest names the page chunks). */
  clientDir?: string;
  /** Development: Vite serves the client and loads the app's render module. */
  vite?: ViteDevServer;
  logger?: Logger;
}

export interface Service {
  server: Server;
  cache: ContentCache;
  metrics: Metrics;
  log: Logger;
  upstreamUrl: string;
  /** Start listening; resolves with the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  /** Stop accepting, let in-flight requests finish, then release the upstream. */
  close(): Promise<void>;
}

type EntryServer = typeof import('../client/entry-server.js');

/**
 * The request target as a path. An absolute-form target (RFC 9112 section 3.2.2) is served by
 * its path; its host is ignored, like the Host header. Undefined for anything else (`*`).
 */
function originForm(target: string): string | undefined {
  if (target.startsWith('/')) return target;
  if (!/^https?:\/\//i.test(target)) return undefined;
  try {
    const url = new URL(target);
    return url.pathname + url.search;
  } catch {
    return undefined;
  }
}

export async function createService(config: Config, options: ServiceOptions = {}): Promise<Service> {
  const log = options.logger ?? createLogger(config.logLevel);
  let embedded: EmbeddedApi | undefined;
  let upstreamUrl = config.upstreamUrl;
  if (!upstreamUrl) {
    embedded = await startEmbeddedApi();
    upstreamUrl = embedded.url;
    log.info({ url: upstreamUrl }, 'no UPSTREAM_URL: embedded content API started');
  }
  const metrics = createMetrics();
  const upstream = new UpstreamClient({
    url: upstreamUrl,
    ...config.upstream,
    onCircuitChange: (state) => {
      metrics.circuitOpen.set(state === 'closed' ? 0 : 1);
      log[state === 'open' ? 'warn' : 'info']({ state }, `circuit breaker ${state}`);
    },
  });
  const cache = new ContentCache(upstream, config.cache, metrics, log);
  const headScriptHash = `sha256-${createHash('sha256').update(HEAD_SCRIPT).digest('base64')}`;
  const vite = options.vite;
  // Development injects Vite's client and React's refresh preamble as inline scripts.
  const headers = securityHeaders([headScriptHash], { csp: !vite });
  const api = serverContentApi(cache);
  // No page cache in development: an edit must show on the next request.
  const pageCache = config.pageCacheMaxBytes > 0 && !vite ? new PageCache(config.pageCacheMaxBytes, headers) : undefined;

  let production: AppRenderer | undefined;
  const renderer = async (): Promise<AppRenderer> => {
    if (vite) {
      // Reloaded per request in development so that edits show at once.
      const entry = (await vite.ssrLoadModule('/client/entry-server.tsx')) as EntryServer;
      return entry.createAppRenderer(api);
    }
    production ??= (await import('../client/entry-server.js')).createAppRenderer(api);
    return production;
  };

  const port = () => (server.address() as AddressInfo | null)?.port ?? config.port;
  const publicOrigin = () => config.publicOrigin ?? `http://localhost:${port()}`;
  const app = createApp({
    headers,
    metrics,
    log,
    metricsToken: config.metricsToken,
    clientDir: options.clientDir,
    vite,
    extraRoutes: seoRoutes(api, publicOrigin, log),
    isReady: async () => {
      if (cache.warm) return true;
      try {
        await cache.get(apiRequestFor('contactUs'));
        return true;
      } catch {
        return false;
      }
    },
    pages: createPageHandler({
      renderer,
      cache,
      assets: vite || !options.clientDir ? devClientAssets : readClientAssets(options.clientDir),
      headScript: HEAD_SCRIPT,
      publicOrigin,
      pageCache,
      transformHead: vite ? (url, head) => vite.transformIndexHtml(url, head) : undefined,
      log,
    }),
  });
  const handleApi = createApiHandler({
    cache,
    config: config.cache,
    headers,
    openApi: Buffer.from(JSON.stringify(buildOpenApi())),
    log,
  });
  const observeRequest = createRequestObserver(log, metrics);

  const server = createServer((req, res) => {
    observeRequest(req, res);
    const url = originForm(req.url ?? '/');
    if (url === undefined) {
      applyHeaders(res, headers);
      sendProblem(res, problem('bad_request', 'the request target must be a path'));
      return;
    }
    req.url = url;
    if (url.startsWith('/api/') || url === '/api') {
      handleApi(req, res);
      return;
    }
    if (pageCache?.serve(req, res)) return;
    app(req, res);
  });
  server.keepAliveTimeout = 65_000;

  return {
    server,
    cache,
    metrics,
    log,
    upstreamUrl,
    async listen(listenPort = config.port, host = config.host) {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(listenPort, host, resolve);
      });
      const address = server.address() as AddressInfo;
      const shownHost = address.address.includes(':') ? `[${address.address}]` : address.address;
      return `http://${shownHost}:${address.port}`;
    },
    async close() {
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
      await embedded?.close();
      await vite?.close();
    },
  };
}
