/**
 * Pages: runs the app's loaders, then writes the head (title, styles, preloads) and pipes
 * React's stream into the response. The status is known before the first byte: 200, 404 for
 * an unknown route or id, 503 when the page's data cannot be had.
 */
import type { Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { NOT_FOUND_TITLE, UNAVAILABLE_TITLE } from '../../shared/page-routes.js';
import type { AppRenderer } from '../../client/entry-server.js';
import type { Logger } from '../observability/logger.js';
import { observe } from '../observability/request-observer.js';
import type { ClientAssets } from './client-assets.js';
import { canonicalUrl, documentHead } from './document-head.js';
import { scaleModeFor } from './scale-mode.js';

/** A render that has not produced its shell by then is abandoned. */
const RENDER_TIMEOUT_MS = 10_000;

export interface PageHandlerDeps {
  renderer: () => Promise<AppRenderer>;
  assets: ClientAssets;
  scaleScript: string;
  publicOrigin: () => string;
  log: Logger;
}

const FALLBACK_HTML =
  '<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
  `<title>${UNAVAILABLE_TITLE}</title></head><body><main><h1>内容暂时无法加载</h1><p>服务暂时不可用，请稍后再试。</p><p><a href="/">返回首页</a></p></main></body></html>`;

export function createPageHandler(deps: PageHandlerDeps) {
  return async function handlePage(req: ExpressRequest, res: ExpressResponse): Promise<void> {
    const controller = new AbortController();
    res.once('close', () => controller.abort());
    const origin = deps.publicOrigin();
    // Concatenated, not resolved: a URL such as //other.host/ must stay a path on this origin.
    const url = new URL(origin + req.originalUrl);
    const fail = (error: unknown, what: string) => {
      deps.log.error({ err: error, url: req.originalUrl }, what);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.status(500).set('cache-control', 'no-store').type('html').send(FALLBACK_HTML);
    };

    let page;
    try {
      const renderer = await deps.renderer();
      page = await renderer.render(new Request(url, { signal: controller.signal }));
    } catch (error) {
      if (!controller.signal.aborted) fail(error, 'page loaders failed');
      return;
    }
    if (page instanceof Response) {
      res.redirect(page.status, page.headers.get('location') ?? '/');
      return;
    }

    const { status } = page;
    observe(res, { route: status === 404 ? 'page:not-found' : `page:${page.route}` });
    const title = status === 404 ? NOT_FOUND_TITLE : status >= 500 ? UNAVAILABLE_TITLE : page.handle.title;
    const head = documentHead({
      title,
      description: page.handle.description || title,
      canonical: canonicalUrl(origin, url),
      scaleMode: scaleModeFor(req.get('user-agent')),
      scaleScript: deps.scaleScript,
      assets: deps.assets.forModules(page.modules),
      indexable: status === 200,
    });

    let timer: NodeJS.Timeout | undefined;
    const stream = page.stream({
      onShellReady() {
        res.status(status === 200 ? 200 : status === 404 ? 404 : 503);
        res.set({
          'content-type': 'text/html; charset=utf-8',
          'cache-control': status === 200 ? 'no-cache' : 'no-store',
          vary: 'Accept-Encoding, User-Agent',
        });
        res.write(head);
        stream.pipe(res);
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
