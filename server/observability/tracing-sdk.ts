/**
 * Tracing switched on (docs/decisions/021): OpenTelemetry's trace SDK with a batch span processor
 * and the OTLP/HTTP exporter (JSON), one provider per process. Loaded by tracing.ts only when an
 * endpoint is configured.
 *
 * Spans: one SERVER span per request (not the health probes); under it a span per cache lookup
 * (which tier answered, fresh or stale, whether it waited for another request's fetch), a CLIENT
 * span per call to the content API (which carries `traceparent`), and a span per page render
 * (route, bytes, or the page cache's hit). An incoming `traceparent` is believed only from a
 * trusted proxy (TRUSTED_PROXIES): anyone else could tie our spans to a trace of their making.
 */
import cluster from 'node:cluster';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import {
  context,
  createContextKey,
  createTraceState,
  isValidSpanId,
  isValidTraceId,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type SpanContext,
} from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
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
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_SERVICE_NAME,
  ATTR_URL_FULL,
  ATTR_URL_PATH,
  ATTR_URL_QUERY,
  ATTR_URL_SCHEME,
} from '@opentelemetry/semantic-conventions';
import type { Logger } from './logger.js';
import { factsOf, requestIdOf } from './request-observer.js';
import type { Config } from '../config.js';
import type { LookupOutcome, RenderTrace, Tracing, TracingDeps, UpstreamCall } from './tracing.js';

/** The site's own attributes, beside the semantic conventions' ones. */
const ATTR = {
  requestId: 'site.request_id',
  cache: 'site.cache',
  variant: 'site.page.variant',
  aborted: 'site.aborted',
  cacheKey: 'site.cache.key',
  cacheStatus: 'site.cache.status',
  cacheTier: 'site.cache.tier',
  cacheFresh: 'site.cache.fresh',
  coalesced: 'site.cache.coalesced',
  backgroundRefresh: 'site.cache.background_refresh',
  conditional: 'site.upstream.conditional',
  notModified: 'site.upstream.not_modified',
  pageRoute: 'site.page.route',
  pageCache: 'site.page.cache',
  renderBytes: 'site.render.bytes',
} as const;

/** Not traced, as they are not logged: the probes would fill the traces. */
const QUIET = new Set(['/healthz', '/readyz']);
/** version-traceid-parentid-flags (W3C Trace Context); a later version may append fields. */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

const SPAN = Symbol('request span');
type Traced = ServerResponse & { [SPAN]?: Span };
/** The context value that marks a cache lookup's span, for lookedUp(). */
const LOOKUP = createContextKey('site cache lookup');

/** One context manager for the process (AsyncLocalStorage); the API holds one globally. */
let contextManager: AsyncLocalStorageContextManager | undefined;
function ensureContextManager(): void {
  if (contextManager) return;
  contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
}

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
      // ExportResultCode.SUCCESS is 0 (its enum is @opentelemetry/core's, not a dependency of ours).
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

function pathAndQuery(target: string): [string, string | undefined] {
  const at = target.indexOf('?');
  return at === -1 ? [target, undefined] : [target.slice(0, at), target.slice(at + 1)];
}

function recordError(span: Span, error: unknown): void {
  const err = error instanceof Error ? error : new Error(String(error));
  span.recordException(err);
  span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
  const kind = (error as { kind?: unknown; code?: unknown } | null)?.kind ?? (error as { code?: unknown } | null)?.code;
  span.setAttribute(ATTR_ERROR_TYPE, typeof kind === 'string' ? kind : err.name);
}

/** The sampler the standard variables name (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG). */
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

export function createTracing({ config, log, trusted, endpoint }: TracingDeps & { endpoint: string }): Tracing {
  ensureContextManager();
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
  const tracer = provider.getTracer('site-bff');
  log.info({ endpoint, serviceName: config.OTEL_SERVICE_NAME }, 'tracing on: spans are sent over OTLP/HTTP');

  /** The parent of a request's span: the caller's trace when a trusted proxy sent it, else none (a new trace). */
  function parentOf(req: IncomingMessage): Context {
    const header = req.headers.traceparent;
    if (typeof header !== 'string' || !trusted.trusts(req.socket.remoteAddress)) return ROOT_CONTEXT;
    const m = TRACEPARENT.exec(header.trim().toLowerCase());
    if (!m || m[1] === 'ff' || (m[1] === '00' && m[5] !== undefined)) return ROOT_CONTEXT;
    const [, , traceId, spanId, flags] = m as unknown as [string, string, string, string, string];
    if (!isValidTraceId(traceId) || !isValidSpanId(spanId)) return ROOT_CONTEXT;
    const state = req.headers.tracestate;
    return trace.setSpanContext(ROOT_CONTEXT, {
      traceId,
      spanId,
      traceFlags: Number.parseInt(flags, 16) & 1,
      isRemote: true,
      ...(typeof state === 'string' && state.length <= 512 ? { traceState: createTraceState(state) } : {}),
    });
  }

  /** Listener for the response's 'close' (one shared function): the request span's last facts, then its end. */
  function endRequest(this: Traced): void {
    const span = this[SPAN]!;
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

  const spanOf = (res: ServerResponse): Span | undefined => (res as Traced)[SPAN];

  function startPageSpan(res: ServerResponse, variant: string, attributes: Record<string, string | number | boolean>): Span {
    spanOf(res)?.setAttribute(ATTR.variant, variant);
    return tracer.startSpan('render', { attributes: { [ATTR.variant]: variant, ...attributes } });
  }

  return {
    serve(listener: RequestListener): RequestListener {
      return (req, res) => {
        const target = req.url ?? '/';
        if (QUIET.has(target)) {
          listener(req, res);
          return;
        }
        const parent = parentOf(req);
        const [path, query] = pathAndQuery(target);
        const method = req.method ?? 'OTHER';
        // Never the headers: Authorization and Cookie stay out of traces.
        const span = tracer.startSpan(
          method,
          {
            kind: SpanKind.SERVER,
            attributes: {
              [ATTR_HTTP_REQUEST_METHOD]: method,
              [ATTR_URL_PATH]: path.slice(0, 1024),
              ...(query === undefined ? {} : { [ATTR_URL_QUERY]: query.slice(0, 1024) }),
              [ATTR_URL_SCHEME]: 'http',
              [ATTR_NETWORK_PEER_ADDRESS]: req.socket.remoteAddress ?? '',
              [ATTR_CLIENT_ADDRESS]: trusted.clientOf(req),
            },
          },
          parent,
        );
        (res as Traced)[SPAN] = span;
        res.once('close', endRequest);
        context.with(trace.setSpan(parent, span), listener, undefined, req, res);
      };
    },

    traceIdOf(res) {
      return spanOf(res)?.spanContext().traceId;
    },

    cacheHit(key) {
      tracer
        .startSpan('cache lookup', {
          attributes: {
            [ATTR.cacheKey]: key,
            [ATTR.cacheStatus]: 'HIT',
            [ATTR.cacheTier]: 'memory',
            [ATTR.cacheFresh]: true,
            [ATTR.coalesced]: false,
          },
        })
        .end();
    },

    async cacheLookup(key, lookup) {
      const span = tracer.startSpan('cache lookup', { attributes: { [ATTR.cacheKey]: key } });
      const active = trace.setSpan(context.active(), span).setValue(LOOKUP, span);
      try {
        return await context.with(active, lookup);
      } catch (error) {
        recordError(span, error);
        throw error;
      } finally {
        span.end();
      }
    },

    lookedUp(outcome: LookupOutcome) {
      const span = context.active().getValue(LOOKUP) as Span | undefined;
      if (!span) return;
      span.setAttributes({
        [ATTR.cacheStatus]: outcome.status,
        [ATTR.cacheTier]: outcome.tier,
        [ATTR.cacheFresh]: outcome.status !== 'STALE',
        [ATTR.coalesced]: outcome.coalesced,
        [ATTR.backgroundRefresh]: outcome.backgroundRefresh,
      });
      const waitedFor = outcome.waitedFor as SpanContext | undefined;
      if (outcome.coalesced && waitedFor) span.addLink({ context: waitedFor, attributes: { 'site.link': 'waited for this fetch' } });
    },

    loadToken() {
      return (context.active().getValue(LOOKUP) as Span | undefined)?.spanContext();
    },

    async upstreamCall(call: UpstreamCall, send) {
      const url = new URL(call.url);
      const span = tracer.startSpan('GET', {
        kind: SpanKind.CLIENT,
        attributes: {
          [ATTR_HTTP_REQUEST_METHOD]: 'GET',
          [ATTR_URL_FULL]: url.href,
          [ATTR_SERVER_ADDRESS]: url.hostname,
          [ATTR_SERVER_PORT]: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
          [ATTR.conditional]: call.conditional,
        },
      });
      const sent = span.spanContext();
      call.headers.traceparent = `00-${sent.traceId}-${sent.spanId}-${sent.traceFlags & 1 ? '01' : '00'}`;
      const state = sent.traceState?.serialize();
      if (state) call.headers.tracestate = state;
      try {
        const answer = await context.with(trace.setSpan(context.active(), span), send);
        span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, answer.status);
        if (answer.status === 304) span.setAttribute(ATTR.notModified, true);
        if (answer.status >= 400 && answer.status !== 404) {
          span.setStatus({ code: SpanStatusCode.ERROR });
          span.setAttribute(ATTR_ERROR_TYPE, String(answer.status));
        }
        return answer;
      } catch (error) {
        recordError(span, error);
        throw error;
      } finally {
        span.end();
      }
    },

    startRender(res, variant): RenderTrace {
      const span = startPageSpan(res, variant, {});
      const active = trace.setSpan(context.active(), span);
      let ended = false;
      res.once('close', () => {
        if (ended) return;
        ended = true;
        if (!res.writableFinished) span.setAttribute(ATTR.aborted, true);
        span.setAttribute(ATTR.renderBytes, render.bytes);
        span.end();
      });
      const render: RenderTrace = {
        bytes: 0,
        run: (fn) => context.with(active, fn),
        matched(route, status) {
          span.setAttribute(ATTR.pageRoute, route);
          span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
          span.setAttribute(ATTR.pageCache, 'miss');
          if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR, message: `the page's data could not be had (${status})` });
        },
        notModified() {
          span.setAttribute(ATTR.pageCache, 'not_modified');
        },
        failed(error) {
          recordError(span, error);
        },
      };
      return render;
    },

    pageCacheHit(res, variant) {
      startPageSpan(res, variant, { [ATTR.pageRoute]: factsOf(res)?.route ?? 'page', [ATTR.pageCache]: 'hit' }).end();
    },

    forceFlush() {
      return provider.forceFlush();
    },

    async shutdown() {
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
