/**
 * Tracing switched on (docs/decisions/021 and 027): OpenTelemetry's trace SDK with a batch span
 * processor and the OTLP/HTTP exporter (JSON), one provider per service. Loaded by tracing.ts
 * only when an endpoint is configured. The core knows nothing of it: spans are made from what the
 * core publishes on diagnostics channels (diagnostics.ts) and from undici's own (`undici:request:*`).
 *
 * Spans: one SERVER span per request (not the health probes); under it a span per cache lookup
 * (which tier answered, fresh or stale, whether it waited for another request's fetch, linked to
 * that fetch), a CLIENT span per outgoing call (the content API's and media origins' calls carry
 * `traceparent`), and a span per page render (route, bytes, or the page cache's hit). An
 * incoming `traceparent` is believed only from a trusted proxy (TRUSTED_PROXIES): anyone else
 * could tie our spans to a trace of their making. A span is made by the service whose request is
 * active, so that services sharing a process (tests) never trace each other's work.
 */
import cluster from 'node:cluster';
import type { RequestListener, ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type ReadableSpan,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_NETWORK_PEER_ADDRESS,
  ATTR_SERVICE_NAME,
  ATTR_URL_PATH,
  ATTR_URL_QUERY,
  ATTR_URL_SCHEME,
} from '@opentelemetry/semantic-conventions';
import type { Config } from '../settings/config.js';
import { RUM_PATH } from '../../shared/rum.js';
import type { Logger } from './logger.js';
import { factsOf, requestIdOf } from './request-observer.js';
import type { Tracing, TracingDeps } from './tracing-api.js';
import { ATTR, propagator, store, subscribeAll, TRACER, unsubscribeAll, type Traced } from './tracing-spans.js';

/**
 * Not traced, as they are not logged: the probes would fill the traces, and a browser's beacon
 * (server/rum) keeps no address, which a span's client.address would.
 */
const QUIET = new Set(['/healthz', '/readyz', RUM_PATH]);

type ExportResult = Parameters<Parameters<SpanExporter['export']>[1]>[0];

/**
 * The exporter, with its failures logged once: the first failed batch says so with the endpoint
 * and the error, the later ones are only counted, and the first batch sent again says how many
 * spans were lost meanwhile. A collector that cannot be reached never touches a request: spans
 * wait in the batch processor's bounded queue, and past it they are dropped.
 */
class ReportingExporter implements SpanExporter {
  #failing = false;
  #lost = 0;

  constructor(
    readonly inner: SpanExporter,
    readonly endpoint: string,
    readonly log: Logger,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      // ExportResultCode.SUCCESS is 0.
      if ((result.code as number) !== 0) {
        this.#lost += spans.length;
        if (!this.#failing) {
          this.#failing = true;
          this.log.warn(
            { endpoint: this.endpoint, err: result.error?.message ?? 'export failed', spans: spans.length },
            'trace export failed: spans are dropped until the collector answers (logged once until it does)',
          );
        }
      } else if (this.#failing) {
        this.#failing = false;
        this.log.info({ endpoint: this.endpoint, lost: this.#lost }, 'trace export recovered');
        this.#lost = 0;
      }
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** The sampler the standard variables name (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG), as the SDKs' env configuration builds it. */
function samplerOf(config: Pick<Config, 'OTEL_TRACES_SAMPLER' | 'OTEL_TRACES_SAMPLER_ARG'>): Sampler {
  const [parentBased, root] = config.OTEL_TRACES_SAMPLER.startsWith('parentbased_')
    ? [true, config.OTEL_TRACES_SAMPLER.slice('parentbased_'.length)]
    : [false, config.OTEL_TRACES_SAMPLER];
  const sampler =
    root === 'always_off'
      ? new AlwaysOffSampler()
      : root === 'traceidratio'
        ? new TraceIdRatioBasedSampler(config.OTEL_TRACES_SAMPLER_ARG)
        : new AlwaysOnSampler();
  return parentBased ? new ParentBasedSampler({ root: sampler }) : sampler;
}

export function createTracing({ config, log, trusted, endpoint, propagateTo }: TracingDeps & { endpoint: string }): Tracing {
  const exporter = new ReportingExporter(
    new OTLPTraceExporter({ url: endpoint, timeoutMillis: config.OTEL_EXPORTER_OTLP_TIMEOUT }),
    endpoint,
    log,
  );
  const provider = new TracerProvider({
    sampler: samplerOf(config),
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: config.OTEL_SERVICE_NAME,
      'service.instance.id': `${hostname()}:${process.pid}`,
      'host.name': hostname(),
      'process.pid': process.pid,
      ...(cluster.isWorker ? { 'site.worker': cluster.worker?.id ?? 0 } : {}),
    }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter,
        maxQueueSize: config.OTEL_BSP_MAX_QUEUE_SIZE,
        maxExportBatchSize: Math.min(512, config.OTEL_BSP_MAX_QUEUE_SIZE),
        scheduledDelayMillis: config.OTEL_BSP_SCHEDULE_DELAY,
        exportTimeoutMillis: config.OTEL_EXPORTER_OTLP_TIMEOUT,
      }),
    ],
  });
  const traced: Traced = { tracer: provider.getTracer('site-bff'), propagateTo: new Set(propagateTo.map((u) => new URL(u).origin)) };
  const spans = new WeakMap<ServerResponse, Span>();
  subscribeAll();
  log.info({ endpoint, serviceName: config.OTEL_SERVICE_NAME }, 'tracing on: spans are sent over OTLP/HTTP');

  /** Listener for the response's 'close': the request span's last facts, then its end. */
  function endRequest(this: ServerResponse): void {
    const span = spans.get(this)!;
    const facts = factsOf(this);
    const route = facts?.route ?? 'other';
    span.updateName(`${this.req.method ?? 'OTHER'} ${route}`);
    span.setAttribute(ATTR_HTTP_ROUTE, route);
    span.setAttribute(ATTR.requestId, requestIdOf(this));
    if (facts?.cache !== undefined) span.setAttribute(ATTR.cache, facts.cache);
    if (this.writableFinished) {
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, this.statusCode);
      if (this.statusCode >= 500) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute(ATTR_ERROR_TYPE, String(this.statusCode));
      }
    } else {
      // The visitor left first: not a fault of ours.
      span.setAttribute(ATTR.aborted, true);
    }
    span.end();
  }

  return {
    serve(listener: RequestListener): RequestListener {
      return (req, res) => {
        const target = req.url ?? '/';
        if (QUIET.has(target)) {
          listener(req, res);
          return;
        }
        // The caller's trace, only when a trusted proxy sent it: anyone else starts a new one.
        const parent = trusted.trusts(req.socket.remoteAddress)
          ? propagator.extract(ROOT_CONTEXT, req.headers, headerGetter)
          : ROOT_CONTEXT;
        const at = target.indexOf('?');
        const method = req.method ?? 'OTHER';
        // Never the headers: Authorization and Cookie stay out of traces.
        const span = traced.tracer.startSpan(
          method,
          {
            kind: SpanKind.SERVER,
            attributes: {
              [ATTR_HTTP_REQUEST_METHOD]: method,
              [ATTR_URL_PATH]: (at === -1 ? target : target.slice(0, at)).slice(0, 1024),
              ...(at === -1 ? {} : { [ATTR_URL_QUERY]: target.slice(at + 1, at + 1025) }),
              [ATTR_URL_SCHEME]: 'http',
              [ATTR_NETWORK_PEER_ADDRESS]: req.socket.remoteAddress ?? '',
              [ATTR_CLIENT_ADDRESS]: trusted.clientOf(req),
            },
          },
          parent,
        );
        spans.set(res, span);
        res.once('close', endRequest);
        store.run(trace.setSpan(parent, span).setValue(TRACER, traced), listener, req, res);
      };
    },

    traceIdOf: (res) => spans.get(res)?.spanContext().traceId,

    forceFlush: () => provider.forceFlush(),

    async shutdown() {
      unsubscribeAll();
      // Within the shutdown budget: what the collector has not taken by then is lost.
      const budgetMs = Math.min(config.OTEL_EXPORTER_OTLP_TIMEOUT, config.SHUTDOWN_TIMEOUT_MS / 2);
      let timer: NodeJS.Timeout | undefined;
      const outOfTime = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), budgetMs);
        timer.unref();
      });
      const done = provider.shutdown().then(
        () => 'done' as const,
        () => 'done' as const,
      );
      const outcome = await Promise.race([done, outOfTime]);
      clearTimeout(timer);
      if (outcome === 'late')
        log.warn({ endpoint, budgetMs }, 'trace export did not finish within the shutdown budget: the last spans are lost');
    },
  };
}

const headerGetter = {
  get: (headers: NodeJS.Dict<string | string[]>, key: string) => headers[key],
  keys: (headers: NodeJS.Dict<string | string[]>) => Object.keys(headers),
};
