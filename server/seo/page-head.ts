/**
 * What a page's head says about it beyond its <title>: the description, the Open Graph set and
 * the Twitter card (share title, summary, picture, canonical address, site name, locale), and
 * its structured data, serialised so that no content can end the block (shared/escape-json.ts).
 * Made only for a page that answers 200, from the data its loaders read.
 */
import { orEmpty, type Layout } from '../../shared/site/navigation.js';
import type { RouteKey } from '../../shared/site/route-table.js';
import { serializeForScript } from '../../shared/escape-json.js';
import type { PageContext, RoutePage } from './page-context.js';
import { summarise } from './page-summary.js';
import { shareImage } from './share-image.js';
import { groupName } from './structured-data/organization.js';
import { pageGraph } from './structured-data/page-graph.js';

/** A <meta> of the head: Open Graph's use `property`, Twitter's `name`. */
interface MetaTag {
  attribute: 'property' | 'name';
  key: string;
  content: string;
}

export interface PageHead {
  description: string;
  meta: MetaTag[];
  /** The JSON-LD block's text, safe inside <script type="application/ld+json">. */
  jsonLd: string;
}

/** The head of the page at `route`, from its loaders' data (`loaderData`, keyed by route id: `root` is the layout's). */
export function pageHead(route: RouteKey, loaderData: Readonly<Record<string, unknown>>, where: Omit<PageContext, 'layout'>): PageHead {
  const layout = orEmpty(loaderData.root as Layout | undefined);
  const ctx: PageContext = { ...where, layout };
  const page = { route, data: loaderData[route] } as RoutePage;
  const summary = summarise(ctx, page);
  const image = shareImage(ctx.origin, summary.card, summary.title, summary.photo);
  const site = groupName(ctx);
  const og = (key: string, content: string | undefined): MetaTag[] => (content ? [{ attribute: 'property', key, content }] : []);
  const meta: MetaTag[] = [
    ...og('og:type', summary.type),
    ...og('og:title', summary.title),
    ...og('og:description', summary.description),
    ...og('og:url', ctx.canonical),
    ...og('og:site_name', site),
    ...og('og:locale', 'zh_CN'),
    ...og('og:image', image.url),
    ...og('og:image:type', image.type),
    ...og('og:image:width', String(image.width)),
    ...og('og:image:height', String(image.height)),
    ...og('og:image:alt', image.alt),
    ...og('article:published_time', summary.publishedTime),
    { attribute: 'name', key: 'twitter:card', content: 'summary_large_image' },
  ];
  return { description: summary.description, meta, jsonLd: serializeForScript(pageGraph(ctx, page, summary.title)) };
}
