/**
 * What the service calls of tracing (tracing.ts decides whether it is on; tracing-sdk.ts, loaded
 * only then, makes it), and what it is given.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Config } from '../settings/config.js';
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
  /** Which peers' `traceparent` and forwarded address are believed (http/trusted-proxies.ts). */
  trusted: { trusts(address: string | undefined): boolean; clientOf(req: IncomingMessage): string };
  /** Where outgoing calls carry `traceparent`: the content API, and the media origins. */
  propagateTo: readonly string[];
}
