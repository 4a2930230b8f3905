/**
 * Where a page's share card is served: `/share-card/<route>.png` for a page of the route table,
 * `/share-card/<route>/<id>.png` for a page about one item (an article, an expert). Nothing else
 * names a card: no query, no size, no text, so that only the site's own pages have one.
 */
import { ROUTES, type ItemRoute, type RouteKey } from '../../shared/site/route-table.js';
import { MAX_ID, parsePlainInt } from '../../shared/plain-int.js';

export const SHARE_CARD_PATH = '/share-card';
/** The card's size: what WeChat, Weibo and the large summary cards of other networks show whole. */
export const SHARE_CARD_WIDTH = 1200;
export const SHARE_CARD_HEIGHT = 630;

/** A share card: a route and, for a route of one item, the item's id. */
export type CardAddress = { route: Exclude<RouteKey, ItemRoute>; id?: undefined } | { route: ItemRoute; id: number };

const needsId = (route: RouteKey): route is ItemRoute => 'needsId' in ROUTES[route];

/** The path of a page's share card. */
export function shareCardPath(card: CardAddress): string {
  return card.id === undefined ? `${SHARE_CARD_PATH}/${card.route}.png` : `${SHARE_CARD_PATH}/${card.route}/${card.id}.png`;
}

/** The card at a path under SHARE_CARD_PATH, or why there is none: 404 for a route that does not exist, 400 for a malformed address. */
export function parseCardPath(path: string): CardAddress | { status: 400 | 404; message: string } {
  const match = /^\/share-card\/([A-Za-z]{1,40})(?:\/([^/]{1,20}))?\.png$/.exec(path);
  if (!match) return { status: 400, message: 'a share card is /share-card/<route>.png or /share-card/<route>/<id>.png' };
  const [, route, rawId] = match;
  if (!Object.hasOwn(ROUTES, route!)) return { status: 404, message: `no route named ${route}` };
  const key = route as RouteKey;
  if (!needsId(key)) {
    return rawId === undefined ? { route: key } : { status: 400, message: `${key} is a page of its own: its card takes no id` };
  }
  const id = parsePlainInt(rawId, 1, MAX_ID);
  if (id === undefined) return { status: 400, message: `${key} needs the item's id, a positive integer` };
  return { route: key, id };
}
