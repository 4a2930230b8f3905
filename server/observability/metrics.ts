/** Prometheus metrics, in a registry of the service's own (tests run several services in one process). */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics(options: { defaultMetrics?: boolean } = {}) {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  /** Filled in by the cache: read when /metrics is scraped. */
  const cacheStats = { entries: () => 0, bytes: () => 0 };
  return {
    cacheStats,
    registry,
    requests: new Counter({
      name: 'http_requests_total',
      help: 'Requests answered, by route (an API path template, a page route or a class) and status.',
      labelNames: ['route', 'method', 'status'] as const,
      registers,
    }),
    requestDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer, by route.',
      labelNames: ['route'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    cacheEvents: new Counter({
      name: 'proxy_cache_events_total',
      help: 'Cache results by content API path: hit, miss, stale, refresh.',
      labelNames: ['path', 'result'] as const,
      registers,
    }),
    upstreamDuration: new Histogram({
      name: 'upstream_request_duration_seconds',
      help: 'Latency of calls to the content API, by path.',
      labelNames: ['path'] as const,
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    upstreamErrors: new Counter({
      name: 'upstream_errors_total',
      help: 'Failed calls to the content API, by path and kind (unreachable, timeout, status, too_large, invalid, circuit_open).',
      labelNames: ['path', 'kind'] as const,
      registers,
    }),
    circuitOpen: new Gauge({
      name: 'upstream_circuit_open',
      help: 'Whether the circuit breaker keeps calls away from the content API: 1 open or probing, 0 closed.',
      registers,
    }),
    cacheEntries: new Gauge({
      name: 'proxy_cache_entries',
      help: 'Entries in the proxy cache.',
      registers,
      collect() {
        this.set(cacheStats.entries());
      },
    }),
    cacheBytes: new Gauge({
      name: 'proxy_cache_bytes',
      help: 'Bytes held by the proxy cache.',
      registers,
      collect() {
        this.set(cacheStats.bytes());
      },
    }),
  };
}

/**
 * A metric's child for a set of label values, looked up once per set: hashing labels on every
 * request costs more than the count itself. Label sets here are bounded (routes, paths,
 * methods, statuses, results).
 */
export function childrenOf<C>(metric: { labels(...values: string[]): C }): (...values: string[]) => C {
  const children = new Map<string, C>();
  return (...values) => {
    const key = values.join('\u0000');
    let child = children.get(key);
    if (!child) children.set(key, (child = metric.labels(...values)));
    return child;
  };
}
