/**
 * /robots.txt, the sitemap (/sitemap.xml, and /sitemap-<n>.xml once it is split:
 * server/seo/sitemap.ts) and, with INDEXNOW_KEY, the IndexNow key file at /<key>.txt. The
 * sitemap is read through the cache and rebuilt at most every few minutes, whoever asks for it or
 * its parts; while it cannot be rebuilt the last one stands, and a rebuild that failed is not
 * tried again for a while (docs/decisions/032: no request makes the sitemap's reads on demand).
 */
import type { Express, Request, Response } from 'express';
import type { ContentApi } from '../../shared/content-api.js';
import { problem, sendProblem } from '../http/problem.js';
import { Representation } from '../http/representation.js';
import { sendStored, type StoredAnswer } from '../http/stored-response.js';
import type { Logger } from '../observability/logger.js';
import { observe } from '../observability/request-observer.js';
import { renderSitemaps, sitemapEntries } from '../seo/sitemap.js';

const SITEMAP_TTL_MS = 5 * 60_000;
/** After a rebuild that failed, the next is not tried before this. */
const RETRY_AFTER_FAILURE_MS = 30_000;

function xmlAnswer(xml: string, at: number): StoredAnswer {
  return {
    status: 200,
    body: new Representation(Buffer.from(xml)),
    headers: ['content-type', 'application/xml; charset=utf-8', 'cache-control', 'public, max-age=300', 'vary', 'Accept-Encoding'],
    storedAt: at,
  };
}

export interface SeoRouteOptions {
  /** The IndexNow key, served at /<key>.txt when set. */
  indexNowKey?: string | undefined;
}

export function seoRoutes(api: ContentApi, origin: () => string, log: Logger, options: SeoRouteOptions = {}) {
  let built: { at: number; main: StoredAnswer; parts: StoredAnswer[] } | undefined;
  let building: Promise<void> | undefined;
  let failedAt = -Infinity;

  /** Rebuilds when older than its time to live; concurrent requests share one rebuild. */
  const fresh = async (): Promise<typeof built> => {
    if (built && Date.now() - built.at <= SITEMAP_TTL_MS) return built;
    if (Date.now() - failedAt < RETRY_AFTER_FAILURE_MS) return built;
    building ??= (async () => {
      try {
        const sitemaps = renderSitemaps(origin(), await sitemapEntries(api));
        const at = Date.now();
        built = { at, main: xmlAnswer(sitemaps.main, at), parts: sitemaps.parts.map((xml) => xmlAnswer(xml, at)) };
      } catch (error) {
        failedAt = Date.now();
        log.warn({ err: error }, 'sitemap could not be built');
      } finally {
        building = undefined;
      }
    })();
    await building;
    return built;
  };

  const unavailable = (res: Response) =>
    res.status(503).set('cache-control', 'no-store').type('text/plain').send('sitemap temporarily unavailable');

  return (app: Express) => {
    app.get('/robots.txt', (_req, res) => {
      observe(res, { route: 'seo' });
      res
        .type('text/plain')
        .set('cache-control', 'public, max-age=3600')
        .send(`User-agent: *\nAllow: /\nDisallow: /api/\nSitemap: ${origin()}/sitemap.xml\n`);
    });

    app.get('/sitemap.xml', async (req: Request, res: Response) => {
      observe(res, { route: 'seo' });
      const sitemaps = await fresh();
      if (!sitemaps) return unavailable(res);
      sendStored(req, res, sitemaps.main, []);
    });

    // The parts of a sitemap too large for one file; none while it fits.
    app.get(/^\/sitemap-([1-9]\d{0,3})\.xml$/, async (req: Request, res: Response) => {
      observe(res, { route: 'seo' });
      const n = Number(/^\/sitemap-(\d+)\.xml$/.exec(req.path)![1]);
      const sitemaps = await fresh();
      if (!sitemaps) return unavailable(res);
      const part = sitemaps.parts[n - 1];
      if (!part) return sendProblem(res, problem('not_found', `the sitemap has ${sitemaps.parts.length} parts`));
      sendStored(req, res, part, []);
    });

    const key = options.indexNowKey;
    if (key) {
      // IndexNow checks that the key it was sent is the site's: its file, at the root, holds it.
      app.get(`/${key}.txt`, (_req, res) => {
        observe(res, { route: 'seo' });
        res.type('text/plain').set('cache-control', 'public, max-age=3600').send(key);
      });
    }
  };
}
