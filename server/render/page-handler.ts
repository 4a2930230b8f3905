/**
 * Pages: runs the app's loaders, then writes the head (title, styles, preloads) and pipes
 * React's stream into the response. The status is known before the first byte: 200, 404 for
 * an unknown route or id, 503 when the page's data cannot be had. A page whose data was all
 * fresh is also kept in the page cache, which answers the next visitors ahead of Express.
 */
import { Writable } from 'node:stream';
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import type { AppRenderer } from '../../client/entry-server.js';
import { NOT_FOUND_TITLE, UNAVAILABLE_TITLE } from '../../shared/page-routes.js';
import { routerSafe } from '../../shared/router-safe.js';
import type { Logger } from '../observability/logger.js';
import { observe } from '../observability/request-observer.js';
import type { ClientAssets } from './client-assets.js';
import { canonicalUrl, documentHead } from './document-head.js';
import { pageCacheKey, type PageCache } from './page-cache.js';
import { UNAVAILABLE_HTML } from './plain-pages.js';
import { RenderReads } from './render-tracking.js';
import { serverContentApi } from './server-content-api.js';
import type { ContentCache } from '../proxy/content-cache.js';
import { scaleModeFor } from './scale-mode.js';

/** A render that has not produced its shell by then is abandoned. */
const RENDER_TIMEOUT_MS = 10_000;

export interface PageHandlerDeps {
  renderer: () => Promise<AppRenderer>;
  cache: ContentCache;
  assets: ClientAssets;
  headScript: string;
  publicOrigin: () => string;
  /** Absent when the page cache is switched off. */
  pageCache: PageCache | undefined;
  /** Development: Vite adds its client and React's refresh preamble to the head. */
  transformHead?: (url: string, head: string) => Promise<string>;
  log: Logger;
}

export function createPageHandler(deps: PageHandlerDeps) {
  return async function handlePage(req: ExpressRequest, res: ExpressResponse): Promise<void> {
    const controller = new AbortController();
    res.once('close', () => controller.abort());
    // The route is known once the router has matched; until then a page is a page.
    observe(res, { route: 'page' });
    const origin = deps.publicOrigin();
    // Concatenated, not resolved: a URL such as //other.host/ must stay a path on this origin.
    const url = new URL(origin + routerSafe(req.originalUrl));
    const scaleMode = scaleModeFor(req.get('user-agent'));
    const fail = (error: unknown, what: string) => {
      deps.log.error({ err: error, url: req.originalUrl }, what);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.status(500).set('cache-control', 'no-store').type('html').send(UNAVAILABLE_HTML);
    };

    const started = performance.now();
    const reads = new RenderReads();
    let page;
    try {
      const renderer = await deps.renderer();
      page = await renderer.render(new Request(url, { signal: controller.signal }), serverContentApi(deps.cache, reads));
    } catch (error) {
      if (!controller.signal.aborted) fail(error, 'page loaders failed');
      return;
    }
    if (page instanceof Response) {
      res.redirect(page.status, page.headers.get('location') ?? '/');
      return;
    }
    const dataMs = performance.now() - started;

    const status = page.status === 200 ? 200 : page.status === 404 ? 404 : 503;
    const route = status === 404 ? 'page:not-found' : `page:${page.route}`;
    observe(res, { route, cache: 'MISS' });
    const title = status === 404 ? NOT_FOUND_TITLE : status === 503 ? UNAVAILABLE_TITLE : page.handle.title;
    const assets = deps.assets.forModules(page.modules);
    let head = documentHead({
      title,
      description: page.handle.description || title,
      canonical: canonicalUrl(origin, url),
      scaleMode,
      headScript: deps.headScript,
      assets,
      indexable: status === 200,
    });
    if (deps.transformHead) head = await deps.transformHead(req.originalUrl, head);
    const pageHeaders = {
      'content-type': 'text/html; charset=utf-8',
      // Revalidated on every visit (ETag, 304): a page changes when its content does.
      'cache-control': status === 200 ? 'no-cache' : 'no-store',
      vary: 'Accept-Encoding, User-Agent',
    };
    const cacheable = status === 200 && deps.pageCache !== undefined;
    const chunks: Buffer[] = [];

    // Forwards React's output to the response (compressed as it goes: React calls flush()),
    // keeping a copy when the page may be cached.
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        if (cacheable) chunks.push(chunk);
        // Backpressure is not followed: the whole page is already rendered into memory.
        res.write(chunk);
        done();
      },
      final(done) {
        res.end();
        done();
        if (cacheable && !controller.signal.aborted) {
          const html = Buffer.concat([Buffer.from(head), ...chunks]);
          deps.pageCache!.store(pageCacheKey(req.originalUrl, scaleMode), html, route, pageHeaders, reads.reuseUntil);
        }
      },
    });
    (sink as Writable & { flush(): void }).flush = () => (res as ExpressResponse & { flush?: () => void }).flush?.();

    let timer: NodeJS.Timeout | undefined;
    const stream = page.stream({
      onShellReady() {
        res.status(status);
        res.set({ ...pageHeaders, 'server-timing': `data;dur=${dataMs.toFixed(1)}, cache;desc=MISS`, 'x-cache': 'MISS' });
        res.write(head);
        stream.pipe(sink);
      },
      onShellError(error) {
        clearTimeout(timer);
        fail(error, 'page render failed');
      },
      onError(error) {
        if (!controller.signal.aborted) deps.log.error({ err: error, url: req.originalUrl }, 'page render error');
      },
    });
    timer = setTimeout(() => stream.abort(new Error('render timed out')), RENDER_TIMEOUT_MS);
    res.once('close', () => {
      clearTimeout(timer);
      // The visitor left before the page was done: stop rendering.
      if (!res.writableFinished) stream.abort();
    });
  };
}
