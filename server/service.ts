/**
 * The service, assembled in three steps: its core (log, the content API, metrics and memory,
 * admission, the upstream pool: service-core.ts), the content and what is kept of it (caches,
 * pictures, search, purges: service-content.ts), and what answers a request (pages, the app, the
 * front doors: service-web.ts); then the listeners. Used by server/main.ts and by the tests,
 * which start it on a free port.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './settings/config.js';
import type { ServiceReport } from './fleet/primary-link.js';
import type { Purger } from './admin/purge.js';
import { guardConnections } from './http/connection-guard.js';
import { baseUrlOf, closeGracefully, listenOn, operatorListener, publicServer, selfUrl } from './listeners.js';
import { UntrustedForwarders, warnUntrustedForwarder } from './http/untrusted-forwarders.js';
import type { MediaEndpoint } from './media/media-endpoint.js';
import type { Logger } from './observability/logger.js';
import type { Metrics } from './observability/metrics.js';
import type { OperatorDeps } from './operations/operator-routes.js';
import { serviceReports } from './operations/service-report.js';
import type { ContentCache } from './proxy/content-cache.js';
import { createCore, type Core, type ServiceOptions } from './service-core.js';
import { createContent, type Content } from './service-content.js';
import { createFrontDoors } from './service-web.js';

export type { ServiceOptions } from './service-core.js';

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
  // The server is made last; the parts made before it ask for its address only once it listens.
  const made: { server?: Server } = {};
  const core = await createCore(config, options, () => made.server && selfUrl(made.server));
  const { log, metrics, link } = core;
  const port = () => (made.server?.address() as AddressInfo | null | undefined)?.port ?? config.PORT;
  const publicOrigin = () => config.PUBLIC_ORIGIN ?? `http://localhost:${port()}`;
  const content = createContent(config, core, publicOrigin);
  // Peers sending X-Forwarded-For without being trusted: warned of once (with workers, by their primary).
  const forwarders = new UntrustedForwarders((address) => (link ? link.forwarder(address) : warnUntrustedForwarder(log, address)));
  const { admission, recentErrors } = core;
  const report = serviceReports({ metrics, admission, forwarders, recentErrors, link, zeroResults: () => content.search.zeroResults() });
  const operator: OperatorDeps = {
    metricsText: async () => (link ? (await report()).metricsText : metrics.registry.metrics()),
    report,
    contentType: metrics.registry.contentType,
    token: config.METRICS_TOKEN,
    log,
  };
  const doors = createFrontDoors({ config, core, content, publicOrigin, operator });
  const served = core.tracing ? core.tracing.serve(doors.public) : doors.public;
  const listening = publicServer(config, served, { trusted: core.trusted, metrics, forwarders });
  made.server = listening;
  const guard = guardConnections(listening, { config, trusted: core.trusted, metrics, log });
  // A worker tells its primary when it holds answers, for the machine's readiness.
  const warmth = link && setInterval(() => link.state({ warm: content.cache.warm }), 500).unref();
  const operatorServer = doors.operator && operatorListener(config, doors.operator);
  return {
    server: listening,
    cache: content.cache,
    purger: content.purger,
    media: content.media,
    metrics,
    report,
    log,
    upstreamUrl: core.upstreamUrl,
    async listen(listenPort = config.PORT, host = config.HOST) {
      await listenOn(listening, listenPort, host);
      if (operatorServer) await listenOn(operatorServer, config.METRICS_PORT, host);
      return baseUrlOf(listening);
    },
    async close() {
      clearInterval(warmth);
      guard.stop();
      operatorServer?.close();
      operatorServer?.closeAllConnections();
      await closeGracefully(listening);
      await closeParts(core, content);
    },
  };
}

/** Once no request is under way: each part let go of, the spans of the last requests sent last. */
async function closeParts(core: Core, content: Content): Promise<void> {
  core.memory.stop();
  content.search.stop();
  core.admission.stop();
  await content.notifier.close();
  await core.upstream.close();
  await content.media.close();
  content.purger.close();
  await content.bus.close();
  await core.redis?.close();
  await core.embedded?.close();
  await core.source.close();
  // The spans of the last requests, sent within the shutdown budget.
  await core.tracing?.shutdown();
}
