/**
 * Where a page request is answered from, worked out once per distinct target (a memo bounded in
 * bytes: http/client-memo.ts), with the variant the visitor gets:
 * - a route's canonical address: the page cache keeps the page per canonical address, so that
 *   `/?utm_source=x` is the page `/` and parameters a page does not read never make a new entry;
 * - no route at all (what every scanner asks for): the one not-found page of the variant, drawn at
 *   NOT_FOUND_PATH and kept like a page, so that it names no address a client chose
 *   (docs/decisions/032);
 * - an address React Router takes for a route that is not the route's own spelling
 *   (`/JTJJ/QYWH`, an encoded letter): drawn as asked, never kept.
 */
import type { IncomingMessage } from 'node:http';
import { canonicalHref } from '../../shared/site/href.js';
import { ROUTES } from '../../shared/site/route-table.js';
import { routerSafe } from '../../shared/router-safe.js';
import { clientMemo } from '../http/client-memo.js';
import type { TrustedProxies } from '../http/trusted-proxies.js';
import { variantOf } from './page-variant.js';

/** Where the not-found page is drawn: an address that is no route. */
export const NOT_FOUND_PATH = '/404';
/** A target's class: the canonical address (which starts with `/`), NOT_FOUND, or AS_ASKED. */
const NOT_FOUND = '404';
const AS_ASKED = '';

/**
 * Whether React Router takes a target's path for one of the routes (client/app-routes.ts, without
 * its catch-all), as its matchRoutes does for paths with no parameter: the path as a URL parser
 * leaves it, each segment decoded, any letter case, any trailing slashes. One expression made
 * once: matchRoutes itself ranks every route on every call, the better part of a millisecond,
 * which an address that is no route must not cost (test/hostile-addresses.test.ts keeps them one).
 */
const ROUTE_PATTERN = new RegExp(
  `^(?:${Object.values(ROUTES)
    .map((r) => r.path.replace(/[\\.*+^${}|()[\]]/g, '\\$&'))
    .join('|')})\\/*$`,
  'i',
);

export function routerTakes(target: string): boolean {
  // As the page handler hands the target to the router: concatenated, never resolved.
  const { pathname } = new URL(`http://site${routerSafe(target)}`);
  let decoded = pathname;
  try {
    decoded = pathname
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/\//g, '%2F'))
      .join('/');
  } catch {
    // A malformed escape: React Router matches the path as it is.
  }
  return ROUTE_PATTERN.test(decoded);
}

const classes = clientMemo<string>();

function classOf(target: string): string {
  let found = classes.get(target);
  if (found === undefined) {
    const q = target.indexOf('?');
    const search = new URLSearchParams(q === -1 ? '' : target.slice(q + 1));
    found = canonicalHref(q === -1 ? target : target.slice(0, q), search) ?? (routerTakes(target) ? AS_ASKED : NOT_FOUND);
    classes.set(target, found);
  }
  return found;
}

/** The page cache's key for a route's page; undefined for any other request. */
export function pageKey(req: IncomingMessage, trusted: TrustedProxies): string | undefined {
  const found = classOf(req.url ?? '/');
  return found === AS_ASKED || found === NOT_FOUND ? undefined : `${variantOf(req, trusted).name} ${found}`;
}

/**
 * The page cache's key for the not-found page, for a page request that names no route; undefined
 * for any other. Asked only of what reaches the page handler: the app's other routes (robots.txt,
 * health, static files) name no route either.
 */
export function notFoundKey(req: IncomingMessage, trusted: TrustedProxies): string | undefined {
  return classOf(req.url ?? '/') === NOT_FOUND ? `${variantOf(req, trusted).name} ${NOT_FOUND}` : undefined;
}
