/**
 * Pages: runs the app's loaders, then writes the head (title, styles, the app's modules) and
 * streams React's output into the response (page-stream.ts), compressed as it is written. The
 * status is known before the first byte: 200, 404 for an unknown route or id, 503 when the page's
 * data cannot be had. So is the page's ETag (page-answer.ts): a client whose copy is current gets a
 * 304 without a body. A 200 is kept in the page cache, and so is the one not-found page of each
 * variant, drawn at NOT_FOUND_PATH for every address that is no route. A render must first pass
 * its admission (shedding, its client's budget) and wait its turn in its client's lane
 * (page-admission.ts); one that called nothing and left nothing the page cache keeps is charged to
 * its client when done (docs/decisions/032).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppRenderer, RenderedPage } from '../../client/entry-server.js';
import { ROUTE_DESCRIPTIONS } from '../../shared/site/route-descriptions.js';
import { indexable } from '../../shared/site/href.js';
import { documentTitle } from '../../shared/site/page-title.js';
import { NOT_FOUND_TITLE, TOO_MANY_TITLE, UNAVAILABLE_TITLE } from '../../shared/site/route-table.js';
import { pageStatus } from '../../shared/problems.js';
import { routerSafe } from '../../shared/router-safe.js';
import { isFresh, Representation, streamEncoder } from '../http/representation.js';
import type { Config } from '../settings/config.js';
import type { Logger } from '../observability/logger.js';
import { observe } from '../observability/request-observer.js';
import { renderChannel } from '../observability/diagnostics.js';
import type { ContentCache } from '../proxy/content-cache.js';
import { rateLimitHeaders } from '../reliability/rate-limit-headers.js';
import type { Admission } from '../reliability/admission.js';
import type { RenderLanes } from '../reliability/render-lanes.js';
import type { ClientAssets } from './client-assets.js';
import { canonicalUrl, documentHead } from './document-head.js';
import type { PageCache } from './page-cache.js';
import { notFoundKey, NOT_FOUND_PATH } from './page-key.js';
import { admittedRenders, sendRefused } from './page-admission.js';
import { UNAVAILABLE_HTML } from './plain-pages.js';
import { RenderReads } from './render-tracking.js';
import type { TrustedProxies } from '../http/trusted-proxies.js';
import { variantOf } from './page-variant.js';
import { answerOf, type PageAnswer, type RenderJob } from './page-answer.js';
import { streamPage } from './page-stream.js';
import { serverContentApi } from './server-content-api.js';
import type { SearchService } from '../search/search-service.js';
import { pageHead } from '../seo/page-head.js';

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
    const job = startJob(req, res);
    const page = await runLoaders(job);
    if (!page) return;
    if (page instanceof Response) {
      res.writeHead(page.status, { location: page.headers.get('location') ?? '/' }).end();
      return;
    }
    const dataMs = performance.now() - job.started;
    const status = pageStatus(page.status);
    const route = status === 404 ? 'page:not-found' : `page:${page.route}`;
    // Refused as too busy while its loaders ran: the same page as when refused before them.
    if (page.errorCode === 'busy') {
      observe(res, { route });
      sendRefused(req, res, 503, job.reads.retryAfterS);
      return;
    }
    observe(res, { route, cache: 'MISS' });
    if (job.observed) Object.assign(job.observed, { route, status });
    const head = await headOf(job, page, status);
    const answer = answerOf(job, status, deps);
    if (answer.key) deps.pageCache!.missed(route);
    // Nothing kept and nothing spent: the render itself costs its client a point (an error page for
    // a parameter that names nothing, an address the router reads as a route that is not its own,
    // a page of search results drawn from the search's cache of answers).
    if (!(answer.key && deps.pageCache!.keeps(job.reads.reuseUntil)) && !job.admitted) deps.admission.charge(req);
    if (status === 200 && isFresh(req, { etag: answer.etag })) {
      if (job.observed) job.observed.notModified = true;
      res.writeHead(304, [...answer.headers, ...answer.vary, 'etag', answer.etag]).end();
      return;
    }
    sendPage(job, page, head, answer, { status, route, dataMs });
  }

  function startJob(req: IncomingMessage, res: ServerResponse): RenderJob {
    const controller = new AbortController();
    res.once('close', () => controller.abort());
    // Every address that is no route gets the one not-found page, drawn where it names no address a client chose.
    const notFound = notFoundKey(req, deps.trusted) !== undefined;
    const target = notFound ? NOT_FOUND_PATH : (req.url ?? '/');
    const origin = deps.publicOrigin();
    const variant = variantOf(req, deps.trusted);
    return {
      req,
      res,
      controller,
      notFound,
      origin,
      // Concatenated, not resolved: a URL such as //other.host/ must stay a path on this origin.
      url: new URL(origin + routerSafe(target)),
      variant,
      observed: renderChannel.hasSubscribers ? { res, variant: variant.name, bytes: 0 } : undefined,
      started: performance.now(),
      renderedAt: deps.pageCache?.generation ?? 0,
      reads: new RenderReads(),
    };
  }

  /** A render that cannot go on: logged, and a plain 500 page unless the answer has begun. */
  function fail(job: RenderJob, error: unknown, what: string): void {
    deps.log.error({ err: error, url: job.req.url }, what);
    if (job.observed) job.observed.error = error;
    if (job.res.headersSent) {
      job.res.destroy();
      return;
    }
    job.res.writeHead(500, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(UNAVAILABLE_HTML);
  }

  /** Runs the app's loaders for the page; undefined when they failed (answered) or the visitor left. */
  async function runLoaders(job: RenderJob): Promise<RenderedPage | Response | undefined> {
    const admit = async () => {
      job.admitted ??= deps.admission.admitCall(job.req, 'page');
      const spent = await job.admitted;
      job.budget = spent.budget;
      if (spent.refusal) throw spent.refusal;
    };
    try {
      const renderer = await deps.renderer();
      const draw = () =>
        renderer.render(
          new Request(job.url, { signal: job.controller.signal }),
          serverContentApi(deps.cache, job.reads, admit, deps.search),
          job.variant.layout === 'large',
        );
      return await (job.observed ? renderChannel.tracePromise(draw, job.observed) : draw());
    } catch (error) {
      if (!job.controller.signal.aborted) fail(job, error, 'page loaders failed');
      return undefined;
    }
  }

  /** The document's head: title, description, what search engines and share previews read, styles and scripts. */
  async function headOf(job: RenderJob, page: RenderedPage, status: number): Promise<string> {
    const { handle } = page;
    const title =
      ERROR_TITLES[status] ??
      (handle.route ? documentTitle(handle.route, page.loaderData[handle.route], job.url.searchParams) : handle.title);
    const canonical = canonicalUrl(job.origin, job.url);
    const seo =
      status === 200 && handle.route ? pageHead(handle.route, page.loaderData, { origin: job.origin, canonical, url: job.url }) : undefined;
    const head = documentHead({
      title,
      description: seo?.description ?? (handle.route ? ROUTE_DESCRIPTIONS[handle.route] : title),
      seo,
      canonical,
      variant: job.variant,
      headScript: deps.headScript,
      rumSampleRate: deps.rumSampleRate,
      assets: deps.assets.forModules(page.modules),
      indexable: status === 200,
      noindex: handle.route ? !indexable(handle.route, job.url.searchParams) : undefined,
    });
    return deps.transformHead ? deps.transformHead(job.notFound ? NOT_FOUND_PATH : (job.req.url ?? '/'), head) : head;
  }

  /** Streams the page, compressed as React writes it, and keeps it in the page cache when it may be kept. */
  function sendPage(
    job: RenderJob,
    page: RenderedPage,
    head: string,
    answer: PageAnswer,
    at: { status: number; route: string; dataMs: number },
  ): void {
    const { req, res, reads } = job;
    const { encoding, encoder } = streamEncoder(req.headers['accept-encoding']);
    streamPage(
      {
        res,
        signal: job.controller.signal,
        encoder,
        observed: job.observed,
        keep: Boolean(answer.key),
        writeHead() {
          res.writeHead(at.status, [
            ...answer.headers,
            ...answer.vary,
            ...(at.status === 200 ? ['etag', answer.etag] : []),
            ...(encoding ? ['content-encoding', encoding] : []),
            'x-cache',
            'MISS',
            'server-timing',
            `data;dur=${at.dataMs.toFixed(1)}, cache;desc=MISS`,
            // Where the visitor's budget stands, when this render spent a point of it or was refused.
            ...rateLimitHeaders(
              at.status === 429 ? (job.budget ?? deps.admission.budgetOf(undefined, reads.retryAfterS ?? 1)) : job.budget,
            ),
          ]);
          deps.firstScreen?.(page.firstScreen);
        },
        done(html) {
          const body = new Representation(html, answer.etag);
          const stored = { status: at.status, body, headers: answer.headers, storedAt: Date.now(), route: at.route, tags: answer.tags };
          deps.pageCache!.store(answer.key as string, stored, reads.reuseUntil, job.renderedAt);
        },
        fail: (error, what) => fail(job, error, what),
        onError(error) {
          deps.log.error({ err: error, url: req.url }, 'page render error');
          if (job.observed) job.observed.error = error;
        },
      },
      page,
      head,
    );
  }
}
