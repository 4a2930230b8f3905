/**
 * Tracing (OpenTelemetry), off unless an OTLP endpoint is configured (docs/decisions/021). This
 * module is all the service loads when it is off: what the instrumented code calls, as an
 * interface, and the switch. The SDK, the exporter and the spans themselves are in
 * tracing-sdk.ts, imported only when tracing is on; every instrumented place checks for a
 * Tracing once and otherwise runs as before.
 */
import type { RequestListener, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import type { TrustedProxies } from '../http/trusted-proxies.js';
import type { CacheStatus } from '../proxy/content-cache.js';
import type { Logger } from './logger.js';

type TracingConfig = Pick<
  Config,
  | 'OTEL_EXPORTER_OTLP_ENDPOINT'
  | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'
  | 'OTEL_SERVICE_NAME'
  | 'OTEL_EXPORTER_OTLP_TIMEOUT'
  | 'OTEL_BSP_SCHEDULE_DELAY'
  | 'OTEL_BSP_MAX_QUEUE_SIZE'
  | 'OTEL_TRACES_SAMPLER'
  | 'OTEL_TRACES_SAMPLER_ARG'
  | 'SHUTDOWN_TIMEOUT_MS'
>;

/**
 * Where spans are sent, as OTLP exporters read the standard variables: the traces endpoint as
 * it is, else the base endpoint with `/v1/traces` appended; undefined (tracing off) when neither is set.
 */
export function tracesEndpoint(
  config: Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'>,
): string | undefined {
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (config.OTEL_EXPORTER_OTLP_ENDPOINT) return `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}

/** Which tier answered a cache lookup: this process's memory, the fleet's Redis, or neither (the content API). */
export type CacheTier = 'memory' | 'redis' | 'miss';

/** What a cache lookup found, for its span. */
export interface LookupOutcome {
  status: CacheStatus;
  tier: CacheTier;
  /** It joined a fetch of the same key already under way (made by another request), and waited for it. */
  coalesced: boolean;
  /** It was answered stale at once while a refresh runs in the background. */
  backgroundRefresh: boolean;
  /** The span of the lookup whose fetch it waited for (`loadToken()` of that lookup). */
  waitedFor: unknown;
}

/** One render of a page, as its span sees it. */
export interface RenderTrace {
  /** Runs the loaders (and the reads they make) with the render's span active. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** The route the router matched and the status the page is sent with. */
  matched(route: string, status: number): void;
  /** Bytes of HTML written (before compression). */
  bytes: number;
  /** The client's copy was current: a 304, nothing rendered. */
  notModified(): void;
  failed(error: unknown): void;
  /** Ended when the response closes, whatever happened. */
}

/** An upstream call's span: what it sent and what came back. */
export interface UpstreamCall {
  /** The headers of the call, which get `traceparent` (and `tracestate`). */
  headers: Record<string, string>;
  /** The path and query asked for, and the base address of the content API. */
  url: string;
  /** It carried the validators of an answer already held (If-None-Match, If-Modified-Since). */
  conditional: boolean;
}

export interface Tracing {
  /** The request listener, with a SERVER span per request (not the health probes) active while it is answered. */
  serve(listener: RequestListener): RequestListener;
  /** The trace id of a response's request span, for its log line. */
  traceIdOf(res: ServerResponse): string | undefined;
  /** A fresh answer in this process, found at once: a cache span, ended at once. */
  cacheHit(key: string): void;
  /** A lookup that may wait: `lookup` runs with its cache span active (the upstream call is its child). */
  cacheLookup<T>(key: string, lookup: () => Promise<T>): Promise<T>;
  /** Called within a lookup: what it found. */
  lookedUp(outcome: LookupOutcome): void;
  /** A token naming the active lookup's span, kept while its fetch runs so that others who join it can link to it. */
  loadToken(): unknown;
  /** An upstream call: a CLIENT span around `send`, which reads the headers given. */
  upstreamCall<T extends { status: number }>(call: UpstreamCall, send: () => Promise<T>): Promise<T>;
  /** A page about to be rendered: a span, child of the request's; the variant is noted on both. */
  startRender(res: ServerResponse, variant: string): RenderTrace;
  /** A page answered from the page cache: a render span that says so. */
  pageCacheHit(res: ServerResponse, variant: string): void;
  /** Send what is finished now. */
  forceFlush(): Promise<void>;
  /** Send what is left and stop, within the shutdown budget. */
  shutdown(): Promise<void>;
}

export interface TracingDeps {
  config: TracingConfig;
  log: Logger;
  trusted: TrustedProxies;
}

/**
 * Tracing as configured: undefined when no endpoint is set, and then nothing of OpenTelemetry
 * is loaded. Each process (each worker) has its own provider and exporter.
 */
export async function startTracing(deps: TracingDeps): Promise<Tracing | undefined> {
  const endpoint = tracesEndpoint(deps.config);
  if (!endpoint) return undefined;
  const { createTracing } = await import('./tracing-sdk.js');
  return createTracing({ ...deps, endpoint });
}
