/**
 * Spans from what the service publishes (diagnostics.ts) and from undici's own channels: a span
 * per cache lookup, page render and outgoing call, made by the tracer of the service whose work
 * is running (its request's context carries it), so that services sharing a process never trace
 * each other's. The channels are subscribed to once for the process while any service traces.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ServerResponse } from 'node:http';
import {
  context,
  createContextKey,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type ContextManager,
  type Span,
  type TextMapSetter,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_FULL,
} from '@opentelemetry/semantic-conventions';
import { hitChannel, lookupChannel, pageHitChannel, renderChannel, type LookupEvent, type RenderEvent } from './diagnostics.js';
import { factsOf } from './request-observer.js';

/** The site's own attributes, beside the semantic conventions' ones. */
export const ATTR = {
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

/** Which service's tracer a context belongs to: set on each request's context by its service. */
export const TRACER = createContextKey('site tracer');

/**
 * The context of the process: an AsyncLocalStorage of our own, so that the diagnostics channels
 * can enter a span's context around the work they announce (`bindStore`).
 */
export const store = new AsyncLocalStorage<Context>();
const contextManager: ContextManager = {
  active: () => store.getStore() ?? ROOT_CONTEXT,
  with: (ctx, fn, thisArg, ...args) => store.run(ctx, () => fn.apply(thisArg, args)),
  bind: (ctx, target) =>
    (typeof target === 'function'
      ? (...args: unknown[]) => store.run(ctx, () => (target as (...a: unknown[]) => unknown)(...args))
      : target) as typeof target,
  enable() {
    return this;
  },
  disable() {
    return this;
  },
};

export const propagator = new W3CTraceContextPropagator();

function recordError(span: Span, error: unknown): void {
  const err = error instanceof Error ? error : new Error(String(error));
  span.recordException(err);
  span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
  const kind = (error as { kind?: unknown; code?: unknown } | null)?.kind ?? (error as { code?: unknown } | null)?.code;
  span.setAttribute(ATTR_ERROR_TYPE, typeof kind === 'string' ? kind : err.name);
}

/** What a service's tracer needs to turn the channels' events into spans. */
export interface Traced {
  tracer: Tracer;
  /** Origins whose calls carry `traceparent` (the content API's, the media origins'). */
  propagateTo: ReadonlySet<string>;
}

/** The tracer of the service whose work is running now, with the context it runs in. */
function activeService(): { ctx: Context; traced: Traced } | undefined {
  const ctx = store.getStore();
  const traced = ctx?.getValue(TRACER) as Traced | undefined;
  return ctx && traced ? { ctx, traced } : undefined;
}

// The subscriptions, made once for the process while any service traces.
const lookupSpans = new WeakMap<LookupEvent, Span>();
const callSpans = new WeakMap<object, Span>();
let services = 0;

const lookupHandlers = {
  asyncEnd(event: LookupEvent) {
    const span = lookupSpans.get(event);
    if (!span) return;
    if (event.status !== undefined) {
      span.setAttributes({
        [ATTR.cacheStatus]: event.status,
        [ATTR.cacheTier]: event.tier ?? 'miss',
        [ATTR.cacheFresh]: event.status !== 'STALE',
        [ATTR.coalesced]: event.coalesced ?? false,
        [ATTR.backgroundRefresh]: event.backgroundRefresh ?? false,
      });
    }
    const leader = event.waitedFor && lookupSpans.get(event.waitedFor);
    if (event.coalesced && leader) span.addLink({ context: leader.spanContext(), attributes: { 'site.link': 'waited for this fetch' } });
    span.end();
  },
  error(event: LookupEvent & { error?: unknown }) {
    const span = lookupSpans.get(event);
    if (span) recordError(span, event.error);
  },
};

function onHit(message: unknown): void {
  const active = activeService();
  if (!active) return;
  active.traced.tracer
    .startSpan('cache lookup', {
      attributes: {
        [ATTR.cacheKey]: (message as { key: string }).key,
        [ATTR.cacheStatus]: 'HIT',
        [ATTR.cacheTier]: 'memory',
        [ATTR.cacheFresh]: true,
        [ATTR.coalesced]: false,
      },
    })
    .end();
}

function onPageHit(message: unknown): void {
  const active = activeService();
  if (!active) return;
  const { res, variant } = message as { res: ServerResponse; variant: string };
  trace.getSpan(active.ctx)?.setAttribute(ATTR.variant, variant);
  active.traced.tracer
    .startSpan('render', {
      attributes: { [ATTR.variant]: variant, [ATTR.pageRoute]: factsOf(res)?.route ?? 'page', [ATTR.pageCache]: 'hit' },
    })
    .end();
}

/** undici's request: where it goes, its headers as flat pairs, and the header it may be given. */
interface UndiciRequest {
  origin: string;
  path: string;
  method: string;
  headers: unknown;
  addHeader(name: string, value: string): unknown;
}

function onRequestCreate(message: unknown): void {
  const active = activeService();
  if (!active) return;
  const request = (message as { request: UndiciRequest }).request;
  const url = new URL(request.path, request.origin);
  const headers = Array.isArray(request.headers) ? (request.headers as string[]) : [];
  const span = active.traced.tracer.startSpan(request.method, {
    kind: SpanKind.CLIENT,
    attributes: {
      [ATTR_HTTP_REQUEST_METHOD]: request.method,
      [ATTR_URL_FULL]: url.href,
      [ATTR_SERVER_ADDRESS]: url.hostname,
      [ATTR_SERVER_PORT]: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
      [ATTR.conditional]: headers.some((h) => /^if-(none-match|modified-since)$/i.test(h)),
    },
  });
  callSpans.set(request, span);
  if (active.traced.propagateTo.has(url.origin)) {
    const setter: TextMapSetter<UndiciRequest> = { set: (carrier, name, value) => void carrier.addHeader(name, value) };
    propagator.inject(trace.setSpan(active.ctx, span), request, setter);
  }
}

function onRequestHeaders(message: unknown): void {
  const { request, response } = message as { request: object; response: { statusCode: number } };
  const span = callSpans.get(request);
  if (!span) return;
  span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, response.statusCode);
  if (response.statusCode === 304) span.setAttribute(ATTR.notModified, true);
  if (response.statusCode >= 400 && response.statusCode !== 404) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.setAttribute(ATTR_ERROR_TYPE, String(response.statusCode));
  }
}

function onRequestDone(message: unknown): void {
  const { request, error } = message as { request: object; error?: unknown };
  const span = callSpans.get(request);
  if (!span) return;
  callSpans.delete(request);
  if (error !== undefined) recordError(span, error);
  span.end();
}

const UNDICI = {
  'undici:request:create': onRequestCreate,
  'undici:request:headers': onRequestHeaders,
  'undici:request:trailers': onRequestDone,
  'undici:request:error': onRequestDone,
} as const;

/** Opens the span of a lookup or a render around the work it announces, within the active service's context. */
function spanAround<E extends object>(open: (traced: Traced, event: E) => Span | undefined, remember?: (event: E, span: Span) => void) {
  return (event: E): Context => {
    const active = activeService();
    const span = active && open(active.traced, event);
    if (!active || !span) return store.getStore() ?? ROOT_CONTEXT;
    remember?.(event, span);
    return trace.setSpan(active.ctx, span);
  };
}

const openLookup = spanAround<LookupEvent>(
  ({ tracer }, event) => tracer.startSpan('cache lookup', { attributes: { [ATTR.cacheKey]: event.key } }),
  (event, span) => lookupSpans.set(event, span),
);

const openRender = spanAround<RenderEvent>(({ tracer }, event) => {
  const span = tracer.startSpan('render', { attributes: { [ATTR.variant]: event.variant } });
  trace.getSpan(store.getStore() ?? ROOT_CONTEXT)?.setAttribute(ATTR.variant, event.variant);
  // A render ends with its response, whatever happened: its facts are complete by then.
  event.res.once('close', () => {
    if (!event.res.writableFinished) span.setAttribute(ATTR.aborted, true);
    if (event.route !== undefined) span.setAttribute(ATTR.pageRoute, event.route);
    if (event.status !== undefined) span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, event.status);
    span.setAttribute(ATTR.pageCache, event.notModified ? 'not_modified' : 'miss');
    span.setAttribute(ATTR.renderBytes, event.bytes);
    if (event.error !== undefined) recordError(span, event.error);
    else if ((event.status ?? 200) >= 500)
      span.setStatus({ code: SpanStatusCode.ERROR, message: `the page's data could not be had (${event.status})` });
    span.end();
  });
  return span;
});

export function subscribeAll(): void {
  if (services++ > 0) return;
  context.setGlobalContextManager(contextManager);
  lookupChannel.start.bindStore(store, openLookup);
  lookupChannel.subscribe(lookupHandlers);
  renderChannel.start.bindStore(store, openRender);
  hitChannel.subscribe(onHit);
  pageHitChannel.subscribe(onPageHit);
  for (const [name, handler] of Object.entries(UNDICI)) subscribe(name, handler);
}

export function unsubscribeAll(): void {
  if (--services > 0) return;
  lookupChannel.start.unbindStore(store);
  lookupChannel.unsubscribe(lookupHandlers);
  renderChannel.start.unbindStore(store);
  hitChannel.unsubscribe(onHit);
  pageHitChannel.unsubscribe(onPageHit);
  for (const [name, handler] of Object.entries(UNDICI)) unsubscribe(name, handler);
}
