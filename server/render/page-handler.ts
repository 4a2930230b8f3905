/**
 * Pages: runs the app's loaders, then writes the head (title, styles, the app's modules) and
 * streams React's output into the response, compressed as it is written. The status is known
 * before the first byte: 200, 404 for an unknown route or id, 503 when the page's data cannot
 * be had. The page's ETag is made from what it was drawn from (the build, the variant, the
 * address and the validators of its data), so it is known before rendering: a client whose copy
 * is current gets a 304 without a render. A 200 is kept in the page cache, and so is the one
 * not-found page of each variant, drawn at NOT_FOUND_PATH for every address that is no route. A
 * render must first pass its admission (shedding, its client's budget) and wait its turn in its
 * client's lane (reliability/render-lanes.ts); one that called nothing and left nothing the page
 * cache keeps is charged to its client when done (docs/decisions/032).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import type { AppRenderer } from '../../client/entry-server.js';
import { ROUTE_DESCRIPTIONS } from '../../shared/site/route-descriptions.js';
import { canonicalHref } from '../../shared/site/href.js';
import { documentTitle } from '../../shared/site/page-title.js';
import { NOT_FOUND_TITLE, TOO_MANY_TITLE, UNAVAILABLE_TITLE } from '../../shared/site/route-table.js';
import { urlTag } from '../proxy/cache-tags.js';
import { ALL_TAG } from '../fleet/purge-message.js';
import { cacheControl } from '../proxy/cached-answer.js';
import { pageStatus } from '../../shared/problems.js';
import { routerSafe } from '../../shared/router-safe.js';
import { etagMatches, Representation, streamEncoder, weakEtag } from '../http/representation.js';
import type { Config } from '../settings/config.js';
import type { Logger } from '../observability/logger.js';
import { observe } from '../observability/request-observer.js';
import { renderChannel, type RenderEvent } from '../observability/diagnostics.js';
import type { ContentCache } from '../proxy/content-cache.js';
import { rateLimitHeaders } from '../reliability/rate-limit-headers.js';
import type { Admission } from '../reliability/admission.js';
import type { Budget, Spent } from '../reliability/miss-limiter.js';
import type { RenderLanes } from '../reliability/render-lanes.js';
import type { ClientAssets } from './client-assets.js';
import { canonicalUrl, documentHead } from './document-head.js';
import type { PageCache } from './page-cache.js';
import { notFoundKey, NOT_FOUND_PATH, pageKey } from './page-key.js';
import { admittedRenders, sendRefused } from './page-admission.js';
import { UNAVAILABLE_HTML } from './plain-pages.js';
import { RenderReads } from './render-tracking.js';
import type { TrustedProxies } from '../http/trusted-proxies.js';
import { variantOf, varyOf } from './page-variant.js';
import { serverContentApi } from './server-content-api.js';
import type { SearchService } from '../search/search-service.js';
import { pageHead } from '../seo/page-head.js';

/** A render that has not finished by then, not counting its waits for the client, is abandoned. */
const RENDER_TIMEOUT_MS = 10_000;
const ERROR_TITLES: Partial<Record<number, string>> = { 404: NOT_FOUND_TITLE, 429: TOO_MANY_TITLE, 503: UNAVAILABLE_TITLE };

export interface PageHandlerDeps {
  renderer: () => Promise<AppRenderer>;
  cache: ContentCache;
  assets: ClientAssets;
  headScript: string;
  /** RUM_SAMPLE_RATE, which the page carries to the browser (client/rum/start-rum.ts). */
  rumSampleRate: number;
  publicOrigin: () => string;
  /** Absent when the page cache is switched off. */
  pageCache: PageCache | undefined;
  /** Development: Vite adds its client and React's refresh preamble to the head. */
  transformHead?: ((url: string, head: string) => Promise<string>) | undefined;
  trusted: TrustedProxies;
  /**
   * What a render must pass: before it starts, shedding and its client's standing (refuseRender);
   * at its first read that calls the content API, its client's budget (admitCall); when it is
   * done, a charge if it called nothing and left nothing kept.
   */
  admission: Pick<Admission, 'refuseRender' | 'admitCall' | 'charge' | 'budgetOf'>;
  /** Each client's renders, a few at once. */
  lanes: RenderLanes;
  /** Told the srcsets of the pictures a rendered page preloads, whose variants for phones are then made ahead (media/ahead.ts). */
  firstScreen?: ((srcsets: readonly string[]) => void) | undefined;
  /** The stale windows pages are sent with, as API answers are. */
  windows: Pick<Config, 'CACHE_STALE_WHILE_REVALIDATE_S' | 'CACHE_STALE_IF_ERROR_S'>;
  log: Logger;
  /** The site's search, which the search page and the expert finder read. */
  search?: SearchService | undefined;
}

export function createPageHandler(deps: PageHandlerDeps) {
  return admittedRenders(deps, render);

  async function render(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const controller = new AbortController();
    res.once('close', () => controller.abort());
    // Every address that is no route gets the one not-found page, drawn where it names no address a client chose.
    const notFound = notFoundKey(req, deps.trusted) !== undefined;
    const target = notFound ? NOT_FOUND_PATH : (req.url ?? '/');
    const origin = deps.publicOrigin();
    // Concatenated, not resolved: a URL such as //other.host/ must stay a path on this origin.
    const url = new URL(origin + routerSafe(target));
    const variant = variantOf(req, deps.trusted);
    const fail = (error: unknown, what: string) => {
      deps.log.error({ err: error, url: req.url }, what);
      if (observed) observed.error = error;
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.writeHead(500, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(UNAVAILABLE_HTML);
    };

    // What observers (tracing) see of this render, when any listens.
    const observed: RenderEvent | undefined = renderChannel.hasSubscribers ? { res, variant: variant.name, bytes: 0 } : undefined;
    const started = performance.now();
    const renderedAt = deps.pageCache?.generation ?? 0;
    const reads = new RenderReads();
    // The client's budget is spent once per render, at its first read that calls the content API.
    let admitted: Promise<Spent> | undefined;
    let budget: Budget | undefined;
    const admit = async () => {
      admitted ??= deps.admission.admitCall(req, 'page');
      const spent = await admitted;
      budget = spent.budget;
      if (spent.refusal) throw spent.refusal;
    };
    let page;
    try {
      const renderer = await deps.renderer();
      const draw = () =>
        renderer.render(
          new Request(url, { signal: controller.signal }),
          serverContentApi(deps.cache, reads, admit, deps.search),
          variant.layout === 'large',
        );
      page = await (observed ? renderChannel.tracePromise(draw, observed) : draw());
    } catch (error) {
      if (!controller.signal.aborted) fail(error, 'page loaders failed');
      return;
    }
    if (page instanceof Response) {
      res.writeHead(page.status, { location: page.headers.get('location') ?? '/' }).end();
      return;
    }
    const dataMs = performance.now() - started;

    const status = pageStatus(page.status);
    const route = status === 404 ? 'page:not-found' : `page:${page.route}`;
    // Refused as too busy while its loaders ran: the same page as when refused before them.
    if (page.errorCode === 'busy') {
      observe(res, { route });
      sendRefused(req, res, 503, reads.retryAfterS);
      return;
    }
    observe(res, { route, cache: 'MISS' });
    if (observed) Object.assign(observed, { route, status });
    const title =
      ERROR_TITLES[status] ??
      (page.handle.route ? documentTitle(page.handle.route, page.loaderData[page.handle.route], url.searchParams) : page.handle.title);
    const assets = deps.assets.forModules(page.modules);
    const canonical = canonicalUrl(origin, url);
    const seo = status === 200 && page.handle.route ? pageHead(page.handle.route, page.loaderData, { origin, canonical, url }) : undefined;
    let head = documentHead({
      title,
      description: seo?.description ?? (page.handle.route ? ROUTE_DESCRIPTIONS[page.handle.route] : title),
      seo,
      canonical,
      variant,
      headScript: deps.headScript,
      rumSampleRate: deps.rumSampleRate,
      assets,
      indexable: status === 200,
      noindex: page.handle.noindex,
    });
    if (deps.transformHead) head = await deps.transformHead(target, head);
    const etag = weakEtag(
      deps.assets.version,
      variant.name,
      `rum=${deps.rumSampleRate}`,
      canonical,
      String(status),
      ...[...reads.etags].sort(),
    );
    const path = canonicalHref(url.pathname, url.searchParams) ?? url.pathname;
    const tags = [...new Set([ALL_TAG, urlTag(path), ...reads.tags])];
    const sharedMaxAge = Math.max(0, Math.floor((reads.reuseUntil - Date.now()) / 1000));
    const headers = [
      'content-type',
      'text/html; charset=utf-8',
      // A browser revalidates every visit (ETag, 304); an edge keeps the page while its data is fresh.
      'cache-control',
      status === 200 ? cacheControl(200, sharedMaxAge, deps.windows) : 'no-store',
      ...(status === 200 ? ['cache-tag', tags.join(', ')] : []),
      // Refused for now (the client's budget, or no slot for a call): when to ask again.
      ...((status === 429 || status === 503) && reads.retryAfterS !== undefined ? ['retry-after', String(reads.retryAfterS)] : []),
    ];
    const vary = ['vary', varyOf(req, deps.trusted)];
    const key = !deps.pageCache
      ? undefined
      : notFound
        ? status === 404 && notFoundKey(req, deps.trusted)
        : status === 200 && pageKey(req, deps.trusted);
    if (key) deps.pageCache!.missed(route);
    // Nothing kept and nothing spent: the render itself costs its client a point (an error page for
    // a parameter that names nothing, an address the router reads as a route that is not its own,
    // a page of search results drawn from the search's cache of answers).
    if (!(key && deps.pageCache!.keeps(reads.reuseUntil)) && !admitted) deps.admission.charge(req);
    if (status === 200 && etagMatches(req.headers['if-none-match'], etag)) {
      if (observed) observed.notModified = true;
      res.writeHead(304, [...headers, ...vary, 'etag', etag]).end();
      return;
    }

    const { encoding, encoder } = streamEncoder(req.headers['accept-encoding']);
    const chunks: Buffer[] = [Buffer.from(head)];
    const out = encoder ?? res;
    // React's output goes out as it comes (compressed) and is kept for the page cache.
    // A client that reads slowly slows the render: a write the response (or the encoder) cannot
    // take now waits for its 'drain', so React stops until then. One that leaves ends the wait.
    let waiting: (() => void) | undefined;
    const resume = () => {
      const done = waiting;
      waiting = undefined;
      done?.();
    };
    out.on('drain', resume);
    controller.signal.addEventListener('abort', resume, { once: true });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (controller.signal.aborted) return done();
        if (key) chunks.push(chunk);
        if (observed) observed.bytes += chunk.length;
        if (out.write(chunk)) done();
        else waiting = done;
      },
      final(done) {
        clearTimeout(timer);
        done();
        if (controller.signal.aborted) return;
        out.end();
        if (key) {
          const html = new Representation(Buffer.concat(chunks), etag);
          deps.pageCache!.store(key, { status, body: html, headers, storedAt: Date.now(), route, tags }, reads.reuseUntil, renderedAt);
        }
      },
    });
    // React calls flush() when it has written a piece worth sending now.
    Object.assign(sink, { flush: () => encoder?.flush() });

    let timer: NodeJS.Timeout | undefined = undefined;
    const stream = page.stream({
      onShellReady() {
        res.writeHead(status, [
          ...headers,
          ...vary,
          ...(status === 200 ? ['etag', etag] : []),
          ...(encoding ? ['content-encoding', encoding] : []),
          'x-cache',
          'MISS',
          'server-timing',
          `data;dur=${dataMs.toFixed(1)}, cache;desc=MISS`,
          // Where the visitor's budget stands, when this render spent a point of it or was refused.
          ...rateLimitHeaders(status === 429 ? (budget ?? deps.admission.budgetOf(undefined, reads.retryAfterS ?? 1)) : budget),
        ]);
        if (encoder) encoder.pipe(res);
        deps.firstScreen?.(page.firstScreen);
        out.write(head);
        if (observed) observed.bytes += Buffer.byteLength(head);
        stream.pipe(sink);
      },
      onShellError(error) {
        clearTimeout(timer);
        fail(error, 'page render failed');
      },
      onError(error) {
        if (controller.signal.aborted) return;
        deps.log.error({ err: error, url: req.url }, 'page render error');
        if (observed) observed.error = error;
      },
    });
    // Only the render's own time counts: while it waits for a slow client, the connection guard's
    // CLIENT_TIMEOUT_MS decides.
    const expire = () => {
      if (waiting) timer = setTimeout(expire, RENDER_TIMEOUT_MS);
      else stream.abort(new Error('render timed out'));
    };
    timer = setTimeout(expire, RENDER_TIMEOUT_MS);
    res.once('close', () => {
      clearTimeout(timer);
      if (res.writableFinished) return;
      // The visitor left before the page was done: stop rendering, and free the encoder.
      stream.abort();
      encoder?.destroy();
    });
  }
}
