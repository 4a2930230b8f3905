/**
 * The first step of the service (service.ts): what every other part is made with. The log, the
 * app's source, the content API (the configured upstream, or the embedded demo on loopback),
 * metrics and the memory budget, Redis for a fleet, trusted proxies, tracing, admission and the
 * upstream pool.
 */
import type { Config } from './settings/config.js';
import { memoryBudget } from './settings/memory-budget.js';
import { memoryWatch } from './memory.js';
import { builtApp } from './app-source.js';
import { startEmbeddedApi } from './embedded-api/embedded-api.js';
import { embeddedPublishing } from './embedded-api/editor.js';
import { RedisLink } from './reliability/redis-link.js';
import { TrustedProxies } from './http/trusted-proxies.js';
import { createLogger } from './observability/logger.js';
import { createMetrics } from './observability/metrics.js';
import { RecentErrors } from './observability/recent-errors.js';
import { startTracing } from './observability/tracing.js';
import { createAdmission } from './reliability/admission.js';
import { UpstreamClient } from './upstream/upstream-client.js';
import type { AppSource } from './app-source.js';
import type { PrimaryLink } from './fleet/primary-link.js';
import type { MemoryBudget } from './settings/memory-budget.js';
import type { Logger } from './observability/logger.js';

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

export type Core = Awaited<ReturnType<typeof createCore>>;

/** `selfUrl`: this service's own address once it listens (the embedded API's publishing calls it). */
export async function createCore(config: Config, options: ServiceOptions, selfUrl: () => string | undefined) {
  const recentErrors = options.logger ? options.recentErrors : (options.recentErrors ?? new RecentErrors());
  const log = options.logger ?? createLogger(config.LOG_LEVEL, recentErrors);
  const source = options.app ?? builtApp();
  // The render module loaded now, not by the first visitor (whose wait would also read as overload).
  if (!source.development) await source.renderer();
  const embedded = config.UPSTREAM_URL
    ? undefined
    : await startEmbeddedApi({ port: config.EMBEDDED_API_PORT, publishing: embeddedPublishing(config.WEBHOOK_SECRET, selfUrl) });
  const upstreamUrl = config.UPSTREAM_URL ?? embedded!.url;
  if (embedded) log.info({ url: upstreamUrl }, 'no UPSTREAM_URL: embedded content API started');
  const metrics = createMetrics({ redis: config.REDIS_URL !== undefined });
  const memory = memoryWatch(options.budget ?? memoryBudget(config), { metrics, log });
  const redis = config.REDIS_URL ? new RedisLink({ url: config.REDIS_URL, budgetMs: config.REDIS_TIMEOUT_MS, log, metrics }) : undefined;
  redis?.start();
  const trusted = new TrustedProxies(config.TRUSTED_PROXIES ?? []);
  // Off (undefined, and OpenTelemetry not loaded) unless an OTLP endpoint is configured.
  const tracing = await startTracing({ config, log, trusted, propagateTo: [upstreamUrl, ...(config.MEDIA_ORIGINS ?? [])] });
  const link = options.link;
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
  return { log, recentErrors, source, embedded, upstreamUrl, metrics, memory, redis, trusted, tracing, link, admission, upstream };
}
