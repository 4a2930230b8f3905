/**
 * Tracing (OpenTelemetry), off unless an OTLP endpoint is configured (docs/decisions/021 and 027).
 * This module is all the service loads when it is off: the switch, and the little the service's
 * shell calls (the request listener's SERVER span, the trace id for log lines, shutdown). The
 * SDK and the spans are in tracing-sdk.ts, imported only when tracing is on, and made from what
 * the core publishes on diagnostics channels (diagnostics.ts): the core never calls tracing.
 */
import type { Config } from '../settings/config.js';
import type { Tracing, TracingDeps } from './tracing-api.js';

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
