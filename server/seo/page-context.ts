/**
 * What the head builders read: the page's route with the data its loaders read (nothing else is
 * fetched for the head), the header and footer data, and the page's addresses.
 */
import type { Layout } from '../../shared/site/navigation.js';
import type { PageData } from '../../shared/site/page-loaders.js';
import type { RouteKey } from '../../shared/site/route-table.js';

/** A route and its loader's data, narrowed together by `route`. */
export type RoutePage = { [K in RouteKey]: { route: K; data: PageData<K> } }[RouteKey];

export interface PageContext {
  /** PUBLIC_ORIGIN, without a trailing slash. */
  origin: string;
  /** The page's canonical address, absolute. */
  canonical: string;
  /** The address asked for (its parameters, as the page read them). */
  url: URL;
  /** Header and footer data (the group's name, logo and contact details); parts may be null. */
  layout: Layout;
}

/** The content item a page shows, for the pages that show one. */
export function pageItem(page: RoutePage) {
  return page.route === 'contentDetail' || page.route === 'reportDetail' ? page.data.item : undefined;
}

/** A path or a /media image on this site, as an absolute address. */
export const absolute = (ctx: Pick<PageContext, 'origin'>, path: string) => ctx.origin + path;
