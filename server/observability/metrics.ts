/** Prometheus metrics, in a registry of the service's own (tests run several services in one process). */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Aggregator } from 'prom-client';

export type Metrics = ReturnType<typeof createMetrics>;
export type MediaMetrics = Metrics['media'];

/** `redis`: whether REDIS_URL is set; without it the Redis metrics are not reported at all. */
export function createMetrics(options: { defaultMetrics?: boolean; redis?: boolean } = {}) {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    media: {
      requests: labelledCounter({
        name: 'media_requests_total',
        help: 'Media requests (/_media/) by result: memory, disk, transformed, stale (the origin failed; the last good copy), file, not_modified, refused (with its reason).',
        labelNames: ['result', 'reason'],
        registers,
      }),
      transformDuration: labelledHistogram({
        name: 'media_transform_duration_seconds',
        help: 'Time to make one image variant, by output format.',
        labelName: 'format',
        buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        registers,
      }),
      originFetches: labelledCounter({
        name: 'media_origin_fetches_total',
        help: 'Originals fetched from their origin, by result: ok (the bytes) or not_modified (a revalidation answered 304).',
        labelNames: ['result'],
        registers,
      }),
      originErrors: labelledCounter({
        name: 'media_origin_errors_total',
        help: 'Originals that could not be fetched or used, by kind (unreachable, timeout, status, not_found, too_large, circuit_open, not_allowed_type, too_many_pixels, undecodable).',
        labelNames: ['kind'],
        registers,
      }),
    },
    requests: labelledCounter({
      name: 'http_requests_total',
      help: 'Requests answered, by route (an API path template, a page route or a class) and status.',
      labelNames: ['route', 'method', 'status'],
      registers,
    }),
    requestDuration: labelledHistogram({
      name: 'http_request_duration_seconds',
      help: 'Time to answer, by route.',
      labelName: 'route',
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    cacheEvents: labelledCounter({
      name: 'proxy_cache_events_total',
      help: "Cache results by content API path: hit, shared (fresh in the fleet's shared tier), miss, stale, refresh, not_modified (a refresh the content API answered 304).",
      labelNames: ['path', 'result'],
      registers,
    }),
    upstreamDuration: labelledHistogram({
      name: 'upstream_request_duration_seconds',
      help: 'Latency of calls to the content API, by path.',
      labelName: 'path',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    upstreamErrors: labelledCounter({
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
    redisErrors: labelledCounter({
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
    pageCacheEvents: labelledCounter({
      name: 'page_cache_events_total',
      help: 'Rendered pages by route: hit (answered from the page cache) or miss (rendered).',
      labelNames: ['route', 'result'],
      registers,
    }),
    purges: labelledCounter({
      name: 'purges_total',
      help: 'Purges asked of this service, by source: api (POST /admin/purge) or webhook (a publish event).',
      labelNames: ['source'],
      registers,
    }),
    edgePurges: labelledCounter({
      name: 'edge_purges_total',
      help: 'Purges passed on to an edge (EDGE_PURGE_URLS), by result: ok or error.',
      labelNames: ['result'],
      registers,
    }),
    rateLimited: labelledCounter({
      name: 'rate_limited_total',
      help: 'Requests refused (429) because a client asked for too much the caches did not have, by kind: api or page.',
      labelNames: ['kind'],
      registers,
    }),
    partnerRequests: labelledCounter({
      name: 'partner_requests_total',
      help: "API requests made with a partner's key (X-API-Key), by partner.",
      labelNames: ['partner'],
      registers,
    }),
    partnerCalls: labelledCounter({
      name: 'partner_calls_total',
      help: "Calls to the content API a partner's requests made, each a point of its budget, by partner.",
      labelNames: ['partner'],
      registers,
    }),
    partnerLimited: labelledCounter({
      name: 'partner_rate_limited_total',
      help: "A partner's requests refused (429) because it had spent its budget, by partner.",
      labelNames: ['partner'],
      registers,
    }),
    shed: labelledCounter({
      name: 'load_shed_total',
      help: 'Requests refused (503) to keep the service answering, by reason: event_loop (busy), upstream_queue (too many content API calls waiting), render_lane (a client waited too long for its turn to render), memory (a picture transform found no room under the memory limit in time).',
      labelNames: ['reason'],
      registers,
    }),
    memoryShed: labelledCounter({
      name: 'memory_shed_total',
      help: 'Times the caches were halved (least recently used out) because the resident set was near the memory limit.',
      labelNames: [],
      registers,
    }),
    forwardedUntrusted: labelledCounter({
      name: 'forwarded_untrusted_total',
      help: 'Requests that carried X-Forwarded-For from a peer not in TRUSTED_PROXIES (ignored; /status names the peers).',
      labelNames: [],
      registers,
    }),
    connectionsClosed: labelledCounter({
      name: 'connections_closed_total',
      help: 'Client connections the service closed, by reason: stalled (the client stopped reading), per_client (over the limit per address), total (over the limit in all).',
      labelNames: ['reason'],
      registers,
    }),
    workers: new Gauge({
      name: 'service_workers',
      help: 'Processes serving requests (summed over the workers).',
      registers,
      collect() {
        this.set(1);
      },
    }),
    searchQueries: labelledCounter({
      name: 'search_queries_total',
      help: 'Search queries answered (the search page, its suggestions and /api/search), by result: found, partial (no result had every word), none (nothing found), browse (no words: the expert finder).',
      labelNames: ['result'],
      registers,
    }),
    searchUpdates: labelledCounter({
      name: 'search_index_updates_total',
      help: 'Changes to the search index, by kind (build: all of it read again; change: what a purge named) and result (ok, error: the index in use stayed).',
      labelNames: ['kind', 'result'],
      registers,
    }),
  };
}

/**
 * A labelled counter, asked for by its label values in order: `requests(route, method, status).inc()`.
 * Plain prom-client (docs/decisions/027): its own series, serializers and aggregation.
 */
function labelledCounter<L extends string>(config: { name: string; help: string; labelNames: readonly L[]; registers: Registry[] }) {
  const counter = new Counter(config);
  return childrenOf((...values: string[]) => counter.labels(...values));
}

/** A histogram with one label, asked for by its value: `requestDuration(route).observe(seconds)`. */
function labelledHistogram(config: { name: string; help: string; labelName: string; buckets: readonly number[]; registers: Registry[] }) {
  const { labelName, buckets, ...rest } = config;
  const histogram = new Histogram({ ...rest, labelNames: [labelName], buckets: [...buckets] });
  return childrenOf((value: string) => histogram.labels(value));
}

/**
 * Each combination of label values asks prom-client for its child once and keeps it: `labels()`
 * makes a labels object and closures on every call, garbage on the path of every request. The
 * children are found through one map per label, never through a key joined from the values (a new
 * string, hashed anew, for every request). The values are bounded by design (routes, methods,
 * statuses, reasons), and so are these maps.
 */
function childrenOf<C>(labels: (...values: string[]) => C): (...values: string[]) => C {
  const root = new Map<string, unknown>();
  return (...values) => {
    let level = root;
    for (let i = 0; i < values.length - 1; i++) {
      let next = level.get(values[i]!) as Map<string, unknown> | undefined;
      if (next === undefined) level.set(values[i]!, (next = new Map()));
      level = next;
    }
    const last = values[values.length - 1]!;
    let child = level.get(last) as C | undefined;
    if (child === undefined) level.set(last, (child = labels(...values)));
    return child;
  };
}

/**
 * A gauge its part reads when /metrics is scraped (a cache's size, a gate's queue), registered by
 * that part when it is made: a number, or one per value of `labelName`. The registry holds what
 * each part registered; nothing here knows the parts.
 */
export function gaugeOnScrape(
  registry: Registry,
  config: { name: string; help: string; aggregator?: Aggregator; labelName?: string },
  read: () => number | Readonly<Record<string, number>>,
): Gauge {
  const { labelName, ...rest } = config;
  return new Gauge({
    ...rest,
    labelNames: labelName ? [labelName] : [],
    registers: [registry],
    collect() {
      const value = read();
      if (typeof value === 'number') this.set(value);
      else for (const [label, n] of Object.entries(value)) this.set({ [labelName!]: label }, n);
    },
  });
}
