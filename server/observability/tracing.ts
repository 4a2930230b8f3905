/**
 * Tracing (OpenTelemetry), off unless an OTLP endpoint is configured (docs/decisions/021 and 027).
 * This module is all the service loads when it is off: the switch, and the little the service's
 * shell calls (the request listener's SERVER span, the trace id for log lines, shutdown). The
 * SDK and the spans are in tracing-sdk.ts, imported only when tracing is on, and made from what
 * the core publishes on diagnostics channels (diagnostics.ts): the core never calls tracing.
 */
import type { RequestListener, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import type { TrustedProxies } from '../http/trusted-proxies.js';
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

export interface Tracing {
  /** The request listener, with a SERVER span per request (not the health probes) active while it is answered. */
  serve(listener: RequestListener): RequestListener;
  /** The trace id of a response's request span, for its log line. */
  traceIdOf(res: ServerResponse): string | undefined;
  /** Send what is finished now. */
  forceFlush(): Promise<void>;
  /** Stop listening, send what is left, within the shutdown budget. */
  shutdown(): Promise<void>;
}

export interface TracingDeps {
  config: TracingConfig;
  log: Logger;
  trusted: TrustedProxies;
  /** Where outgoing calls carry `traceparent`: the content API, and the media origins. */
  propagateTo: readonly string[];
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
