/** Prometheus metrics, in a registry of the service's own (tests run several services in one process). */
import { Counter, Gauge, Registry, collectDefaultMetrics, type Metric } from 'prom-client';

export type Metrics = ReturnType<typeof createMetrics>;
export type MediaMetrics = Metrics['media'];

/** `redis`: whether REDIS_URL is set; without it the Redis metrics are not reported at all. */
export function createMetrics(options: { defaultMetrics?: boolean; redis?: boolean } = {}) {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  /** Filled in by the parts that know (the caches, the upstream gate, readiness): read when /metrics is scraped. */
  const stats = { entries: () => 0, bytes: () => 0, pages: () => 0, upstreamInFlight: () => 0, upstreamQueued: () => 0, ready: () => 1 };
  /** Bytes the media endpoint holds, by store (server/media). */
  const mediaBytes: { variants: () => number; originals: () => number; disk: () => number } = {
    variants: () => 0,
    originals: () => 0,
    disk: () => 0,
  };
  return {
    stats,
    mediaBytes,
    registry,
    media: {
      requests: talliedCounter({
        name: 'media_requests_total',
        help: 'Media requests (/_media/) by result: memory, disk, transformed, stale (the origin failed; the last good copy), file, not_modified, refused (with its reason).',
        labelNames: ['result', 'reason'],
        registers,
      }),
      transformDuration: talliedHistogram({
        name: 'media_transform_duration_seconds',
        help: 'Time to make one image variant, by output format.',
        labelName: 'format',
        buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        registers,
      }),
      originFetches: talliedCounter({
        name: 'media_origin_fetches_total',
        help: 'Originals fetched from their origin, by result: ok (the bytes) or not_modified (a revalidation answered 304).',
        labelNames: ['result'],
        registers,
      }),
      originErrors: talliedCounter({
        name: 'media_origin_errors_total',
        help: 'Originals that could not be fetched or used, by kind (unreachable, timeout, status, not_found, too_large, circuit_open, not_allowed_type, too_many_pixels, undecodable).',
        labelNames: ['kind'],
        registers,
      }),
      cacheBytes: new Gauge({
        name: 'media_cache_bytes',
        help: 'Bytes held by the media caches, by store: variants and originals in memory, disk (MEDIA_CACHE_DIR).',
        labelNames: ['store'],
        registers,
        collect() {
          for (const [store, bytes] of Object.entries(mediaBytes)) this.set({ store }, bytes());
        },
      }),
    },
    requests: talliedCounter({
      name: 'http_requests_total',
      help: 'Requests answered, by route (an API path template, a page route or a class) and status.',
      labelNames: ['route', 'method', 'status'],
      registers,
    }),
    requestDuration: talliedHistogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer, by route.',
      labelName: 'route',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    cacheEvents: talliedCounter({
      name: 'proxy_cache_events_total',
      help: "Cache results by content API path: hit, shared (fresh in the fleet's shared tier), miss, stale, refresh, not_modified (a refresh the content API answered 304).",
      labelNames: ['path', 'result'],
      registers,
    }),
    upstreamDuration: talliedHistogram({
      name: 'upstream_request_duration_seconds',
      help: 'Latency of calls to the content API, by path.',
      labelName: 'path',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    upstreamErrors: talliedCounter({
      name: 'upstream_errors_total',
      help: 'Failed calls to the content API, by path and kind (unreachable, timeout, status, too_large, invalid, circuit_open).',
      labelNames: ['path', 'kind'],
      registers,
    }),
    redisUp: new Gauge({
      name: 'redis_up',
      help: 'Whether the service is connected to Redis (the shared cache tier): 1 yes, 0 no; absent without REDIS_URL; with workers, 1 only when all are.',
      registers: options.redis ? registers : [],
      aggregator: 'min',
    }),
    redisErrors: talliedCounter({
      name: 'redis_errors_total',
      help: 'Redis calls that failed and were gone without, by operation and kind (unavailable, timeout, error).',
      labelNames: ['op', 'kind'],
      registers,
    }),
    circuitOpen: new Gauge({
      name: 'upstream_circuit_open',
      help: 'Whether the circuit breaker keeps calls away from the content API: 1 open or probing, 0 closed; with workers, 1 when any is.',
      registers,
      aggregator: 'max',
    }),
    pageCacheEvents: talliedCounter({
      name: 'page_cache_events_total',
      help: 'Rendered pages by route: hit (answered from the page cache) or miss (rendered).',
      labelNames: ['route', 'result'],
      registers,
    }),
    pageCacheEntries: new Gauge({
      name: 'page_cache_entries',
      help: 'Pages in the page cache.',
      registers,
      collect() {
        this.set(stats.pages());
      },
    }),
    purges: talliedCounter({
      name: 'purges_total',
      help: 'Purges asked of this service, by source: api (POST /admin/purge) or webhook (a publish event).',
      labelNames: ['source'],
      registers,
    }),
    edgePurges: talliedCounter({
      name: 'edge_purges_total',
      help: 'Purges passed on to an edge (EDGE_PURGE_URLS), by result: ok or error.',
      labelNames: ['result'],
      registers,
    }),
    rateLimited: talliedCounter({
      name: 'rate_limited_total',
      help: 'Requests refused (429) because a client asked for too much the caches did not have, by kind: api or page.',
      labelNames: ['kind'],
      registers,
    }),
    partnerRequests: talliedCounter({
      name: 'partner_requests_total',
      help: "API requests made with a partner's key (X-API-Key), by partner.",
      labelNames: ['partner'],
      registers,
    }),
    partnerCalls: talliedCounter({
      name: 'partner_calls_total',
      help: "Calls to the content API a partner's requests made, each a point of its budget, by partner.",
      labelNames: ['partner'],
      registers,
    }),
    partnerLimited: talliedCounter({
      name: 'partner_rate_limited_total',
      help: "A partner's requests refused (429) because it had spent its budget, by partner.",
      labelNames: ['partner'],
      registers,
    }),
    shed: talliedCounter({
      name: 'load_shed_total',
      help: 'Requests refused (503) to keep the service answering, by reason: event_loop (busy), upstream_queue (too many content API calls waiting).',
      labelNames: ['reason'],
      registers,
    }),
    forwardedUntrusted: talliedCounter({
      name: 'forwarded_untrusted_total',
      help: 'Requests that carried X-Forwarded-For from a peer not in TRUSTED_PROXIES (ignored; /status names the peers).',
      labelNames: [],
      registers,
    }),
    connectionsClosed: talliedCounter({
      name: 'connections_closed_total',
      help: 'Client connections the service closed, by reason: stalled (the client stopped reading), per_client (over the limit per address), total (over the limit in all).',
      labelNames: ['reason'],
      registers,
    }),
    upstreamInFlight: new Gauge({
      name: 'upstream_in_flight',
      help: 'Calls to the content API under way now.',
      registers,
      collect() {
        this.set(stats.upstreamInFlight());
      },
    }),
    upstreamQueued: new Gauge({
      name: 'upstream_queued',
      help: 'Calls to the content API waiting for a free slot now.',
      registers,
      collect() {
        this.set(stats.upstreamQueued());
      },
    }),
    ready: new Gauge({
      name: 'service_ready',
      help: 'Whether the service can serve (/readyz): 1 ready, 0 not ready or busy; with workers, 1 when any can (they share their answers).',
      registers,
      aggregator: 'max',
      collect() {
        this.set(stats.ready());
      },
    }),
    workers: new Gauge({
      name: 'service_workers',
      help: 'Processes serving requests (summed over the workers).',
      registers,
      collect() {
        this.set(1);
      },
    }),
    cacheEntries: new Gauge({
      name: 'proxy_cache_entries',
      help: 'Entries in the proxy cache.',
      registers,
      collect() {
        this.set(stats.entries());
      },
    }),
    cacheBytes: new Gauge({
      name: 'proxy_cache_bytes',
      help: 'Bytes held by the proxy cache.',
      registers,
      collect() {
        this.set(stats.bytes());
      },
    }),
  };
}

/*
 * The labelled metrics, fed by every request and every upstream call, are tallied in plain
 * numbers and handed to the registry when /metrics is read: prom-client's inc() and observe()
 * hash their labels on every call (docs/decisions/012); test/observability.test.ts checks that
 * the series written are prom-client's own.
 * Their label sets are bounded (routes, paths, methods, statuses, results, kinds), and each
 * set's tally is looked up once per event.
 */

class Tally {
  n = 0;
  constructor(readonly labels: Record<string, string>) {}
  inc(): void {
    this.n++;
  }
}

/** A prom-client Counter whose increments are counted apart and added to it when it is read. */
function talliedCounter(config: { name: string; help: string; labelNames: readonly string[]; registers: Registry[] }) {
  const tallies = new Map<string, Tally>();
  new Counter({
    ...config,
    collect() {
      for (const tally of tallies.values()) {
        if (tally.n === 0) continue;
        this.inc(tally.labels, tally.n);
        tally.n = 0;
      }
    },
  });
  return (...values: string[]): Tally => {
    const key = values.join('\u0000');
    let tally = tallies.get(key);
    if (!tally) tallies.set(key, (tally = new Tally(Object.fromEntries(config.labelNames.map((n, i) => [n, values[i]!])))));
    return tally;
  };
}

class HistogramTally {
  /** Observations per bucket (not cumulative); the last one is +Inf. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;
  constructor(
    readonly labels: Record<string, string>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }
  observe(value: number): void {
    let i = 0;
    while (i < this.bounds.length && value > this.bounds[i]!) i++;
    this.counts[i]!++;
    this.sum += value;
    this.count++;
  }
}

/**
 * A histogram with one label, registered as a metric of the registry: it writes the same
 * `_bucket` (cumulative, with `le`), `_sum` and `_count` series as prom-client's Histogram.
 */
function talliedHistogram(config: { name: string; help: string; labelName: string; buckets: readonly number[]; registers: Registry[] }) {
  const { name, help, labelName, buckets } = config;
  const tallies = new Map<string, HistogramTally>();
  const metric = {
    name,
    help,
    type: 'histogram' as const,
    aggregator: 'sum' as const,
    get() {
      const values: { value: number; labels: Record<string, string | number>; metricName: string }[] = [];
      for (const t of tallies.values()) {
        let cumulative = 0;
        buckets.forEach((le, i) => {
          cumulative += t.counts[i]!;
          values.push({ value: cumulative, labels: { le, ...t.labels }, metricName: `${name}_bucket` });
        });
        values.push({ value: t.count, labels: { le: '+Inf', ...t.labels }, metricName: `${name}_bucket` });
        values.push({ value: t.sum, labels: t.labels, metricName: `${name}_sum` });
        values.push({ value: t.count, labels: t.labels, metricName: `${name}_count` });
      }
      return { name, help, type: metric.type, aggregator: metric.aggregator, values };
    },
    reset() {
      tallies.clear();
    },
  };
  for (const registry of config.registers) registry.registerMetric(metric as unknown as Metric);
  return (value: string): HistogramTally => {
    let tally = tallies.get(value);
    if (!tally) tallies.set(value, (tally = new HistogramTally({ [labelName]: value }, buckets)));
    return tally;
  };
}
