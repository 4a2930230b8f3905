/**
 * The third step of the service (service.ts): what answers a request. The page handler, the
 * Express app with its routes, and the front doors (the public one, and the operators' own on
 * METRICS_PORT) with their headers and request observer.
 */
import { createHash } from 'node:crypto';
import { HEAD_SCRIPT } from '../shared/site/head-script.js';
import type { Config } from './settings/config.js';
import { createApp } from './app.js';
import { readiness } from './readiness.js';
import { createRefusal } from './render/refusal.js';
import { adminRoutes } from './admin/admin-routes.js';
import { createFrontDoor } from './http/front-door.js';
import { FairTurns } from './http/fair-turns.js';
import { apiDocsHeaders, apiHeaders, securityHeaders } from './http/security-headers.js';
import { PartnerKeys } from './http/partner-keys.js';
import { operatorApp, operatorRoutes, type OperatorDeps } from './operations/operator-routes.js';
import { createRequestObserver } from './observability/request-observer.js';
import { createRumMetrics } from './rum/rum-metrics.js';
import { rumRoutes } from './rum/rum-receiver.js';
import { createApiDocsPage } from './api-docs/api-docs-page.js';
import { createApiHandler } from './proxy/api-handler.js';
import { buildOpenApi } from './api-docs/openapi.js';
import { RenderLanes } from './reliability/render-lanes.js';
import { createPageHandler } from './render/page-handler.js';
import { seoRoutes } from './render/seo-routes.js';
import { shareCardRoutes } from './render/share-card-routes.js';
import { searchEndpoint } from './search/search-api.js';
import { searchExample } from './api-docs/search-openapi.js';
import type { Core } from './service-core.js';
import type { Content } from './service-content.js';

interface Parts {
  config: Config;
  core: Core;
  content: Content;
  publicOrigin: () => string;
  operator: OperatorDeps;
}

/** The pages: rendered (through the page cache) by the app's renderer. */
function createPages({ config, core, content, publicOrigin }: Parts) {
  const { source, trusted, admission, log } = core;
  const lanes = new RenderLanes(config.RENDERS_PER_CLIENT, config.MAX_CONNECTIONS_PER_CLIENT, trusted, (why) => admission.laneRefused(why));
  return createPageHandler({
    renderer: () => source.renderer(),
    cache: content.cache,
    assets: source.assets,
    headScript: HEAD_SCRIPT,
    rumSampleRate: config.RUM_SAMPLE_RATE,
    publicOrigin,
    pageCache: content.pageCache,
    transformHead: source.transformHead,
    trusted,
    admission,
    lanes,
    firstScreen: (srcsets) => content.media.ahead.page(srcsets),
    windows: config,
    log,
    search: content.search,
  });
}

/** The Express app: static files, the pages, and the routes beside them (SEO, share cards, RUM, admin, operators). */
function createSiteApp(parts: Parts, pages: ReturnType<typeof createPageHandler>) {
  const { config, core, content, publicOrigin, operator } = parts;
  const { log, admission } = core;
  return createApp({
    source: core.source,
    log,
    secureCookies: config.PUBLIC_ORIGIN?.startsWith('https:') === true,
    operatorRoutes: config.METRICS_PORT === undefined ? operatorRoutes(operator, false) : undefined,
    extraRoutes: (app) => {
      seoRoutes(content.api, publicOrigin, log, { indexNowKey: config.INDEXNOW_KEY })(app);
      shareCardRoutes({
        cache: content.cache,
        cards: content.cards,
        overloaded: () => admission.overloaded(),
        admission,
        windows: config,
        log,
      })(app);
      rumRoutes({ config, trusted: core.trusted, metrics: createRumMetrics(core.metrics.registry), log })(app);
      adminRoutes({
        purger: content.purger,
        purgeToken: config.PURGE_TOKEN,
        webhookSecret: config.WEBHOOK_SECRET,
        shared: content.shared,
        published: (event) => content.notifier.announce(event),
      })(app);
    },
    readiness: readiness({ admission, cache: content.cache, link: core.link, registry: core.metrics.registry }),
    pages,
  });
}

/** The public front door (pages, /api, /api/docs, /_media, the app) and, with METRICS_PORT, the operators' own. */
export function createFrontDoors(parts: Parts) {
  const { config, core, content, publicOrigin } = parts;
  const { source, log, admission } = core;
  const pages = createPages(parts);
  const headScriptHash = `sha256-${createHash('sha256').update(HEAD_SCRIPT).digest('base64')}`;
  // Development injects Vite's client and React's refresh preamble as inline scripts.
  const pageHeaders = securityHeaders([headScriptHash], { csp: !source.development });
  // The reference page sends requests to the document's server: PUBLIC_ORIGIN, else this service on localhost.
  const documentServer = config.PUBLIC_ORIGIN ? new URL(config.PUBLIC_ORIGIN).origin : 'http://localhost:*';
  const headers = { pages: pageHeaders, api: apiHeaders(pageHeaders), apiDocs: apiDocsHeaders(pageHeaders, [documentServer]) };
  const observer = createRequestObserver(log, core.metrics, core.tracing && ((res) => core.tracing!.traceIdOf(res)));
  const api = createApiHandler({
    cache: content.cache,
    openApi: async () => Buffer.from(JSON.stringify(buildOpenApi({ serverUrl: publicOrigin(), searchExample: await searchExample() }))),
    log,
    admission,
    partners: new PartnerKeys(config.API_KEYS ?? []),
    metrics: core.metrics,
    search: searchEndpoint({ search: content.search, admission, log }),
  });
  const pageCache = content.pageCache;
  const handlers = {
    apiDocs: createApiDocsPage(source.apiReferenceScript),
    api,
    cachedPage: pageCache && ((req, res) => pageCache.serve(req, res)),
    media: content.media.handle,
    app: createSiteApp(parts, pages),
    refuse: createRefusal(pages),
  } satisfies Parameters<typeof createFrontDoor>[2];
  const limits = { maxUrlBytes: config.MAX_URL_BYTES, turns: new FairTurns(config.REQUESTS_PER_TURN, core.trusted) };
  return {
    public: createFrontDoor(headers, observer, handlers, limits),
    // The operators' own listener: ids, headers, request line, metrics.
    operator: config.METRICS_PORT === undefined ? undefined : createFrontDoor(headers, observer, { app: operatorApp(parts.operator) }),
  };
}
