/**
 * /robots.txt and /sitemap.xml. The sitemap lists the site's routes and the detail page of
 * every content item and expert, read through the cache; it is rebuilt at most every few minutes.
 */
import type { Express } from 'express';
import { contentHref, expertHref, href } from '../../client/href.js';
import { ROUTES, type ItemRoute, type RouteKey } from '../../client/route-table.js';
import { PAGE_SIZE_MAX } from '../../shared/constants.js';
import type { ContentApi } from '../../shared/content-api.js';
import type { ContentSummary, Page } from '../../shared/contract/entities.js';
import { Representation } from '../http/representation.js';
import { sendStored, type StoredAnswer } from '../http/stored-response.js';
import type { Logger } from '../observability/logger.js';
import { observe } from '../observability/request-observer.js';

const SITEMAP_TTL_MS = 5 * 60_000;

async function everyPage<T>(read: (page: number) => Promise<Page<T>>): Promise<T[]> {
  const first = await read(1);
  const items = [...first.items];
  const pages = Math.ceil(first.total / first.pageSize);
  for (let page = 2; page <= pages; page++) items.push(...(await read(page)).items);
  return items;
}

function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

async function sitemapPaths(api: ContentApi): Promise<string[]> {
  const pageSize = PAGE_SIZE_MAX;
  const [news, research, articles, experts] = await Promise.all([
    everyPage((page) => api.get('news', { query: { page, pageSize } })),
    everyPage((page) => api.get('research', { query: { page, pageSize } })),
    everyPage((page) => api.get('knowledgeArticles', { query: { page, pageSize } })),
    everyPage((page) => api.get('experts', { query: { page, pageSize } })),
  ]);
  const items: ContentSummary[] = [...news, ...research, ...articles];
  // A page of one item is listed once per item.
  const lists = (Object.keys(ROUTES) as RouteKey[]).filter((key): key is Exclude<RouteKey, ItemRoute> => !('needsId' in ROUTES[key]));
  return [...lists.map((key) => href(key)), ...items.map(contentHref), ...experts.map((e) => expertHref(e.id))];
}

export function seoRoutes(api: ContentApi, origin: () => string, log: Logger) {
  let built: { at: number; answer: StoredAnswer } | undefined;

  return (app: Express) => {
    app.get('/robots.txt', (_req, res) => {
      observe(res, { route: 'seo' });
      res
        .type('text/plain')
        .set('cache-control', 'public, max-age=3600')
        .send(`User-agent: *\nAllow: /\nDisallow: /api/\nSitemap: ${origin()}/sitemap.xml\n`);
    });

    app.get('/sitemap.xml', async (req, res) => {
      observe(res, { route: 'seo' });
      if (!built || Date.now() - built.at > SITEMAP_TTL_MS) {
        try {
          const paths = await sitemapPaths(api);
          const urls = paths.map((p) => `<url><loc>${xmlEscape(origin() + p)}</loc></url>`).join('');
          const xml = `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`;
          built = {
            at: Date.now(),
            answer: {
              status: 200,
              body: new Representation(Buffer.from(xml)),
              headers: [
                'content-type',
                'application/xml; charset=utf-8',
                'cache-control',
                'public, max-age=300',
                'vary',
                'Accept-Encoding',
              ],
              storedAt: Date.now(),
            },
          };
        } catch (error) {
          log.warn({ err: error }, 'sitemap could not be built');
          if (!built) {
            res.status(503).set('cache-control', 'no-store').type('text/plain').send('sitemap temporarily unavailable');
            return;
          }
        }
      }
      sendStored(req, res, built.answer, []);
    });
  };
}
