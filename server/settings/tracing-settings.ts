/** Tracing's settings, named as OpenTelemetry's SDKs name them (docs/decisions/021), part of the one schema in config.ts. */
import { z } from 'zod';
import { int } from './setting-kinds.js';

export const TRACING_SETTINGS = {
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      'turns on tracing (OpenTelemetry): spans are sent over OTLP/HTTP (JSON) to this base address + `/v1/traces`; unset: tracing is off and its SDK is never loaded',
    ),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      'the full address spans are sent to, used as it is (wins over `OTEL_EXPORTER_OTLP_ENDPOINT`; setting it alone turns tracing on)',
    ),
  OTEL_SERVICE_NAME: z.string().min(1).max(200).default('site-bff').describe("the traces' `service.name`"),
  OTEL_EXPORTER_OTLP_TIMEOUT: int(100, 60_000)
    .default(10_000)
    .describe(
      'budget, in ms, of sending one batch of spans (retries included); on shutdown the last spans get at most half of `SHUTDOWN_TIMEOUT_MS`',
    ),
  OTEL_BSP_SCHEDULE_DELAY: int(10, 60_000).default(5_000).describe('longest wait, in ms, before finished spans are sent in a batch'),
  OTEL_TRACES_SAMPLER: z
    .enum(['parentbased_always_on', 'parentbased_traceidratio', 'parentbased_always_off', 'always_on', 'traceidratio', 'always_off'])
    .default('parentbased_always_on')
    .describe("which requests are traced, as OpenTelemetry's SDKs read it: `parentbased_*` follows a trusted caller's decision"),
  OTEL_TRACES_SAMPLER_ARG: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(1)
    .describe('the share of traces kept by the `traceidratio` samplers (`0.1` keeps one in ten)'),
  OTEL_BSP_MAX_QUEUE_SIZE: int(64, 1_000_000)
    .default(2_048)
    .describe('finished spans held for sending; past it (a collector that is down or slow) new ones are dropped, never waited for'),
};
