/**
 * The key of a page in the page cache: the variant the visitor gets and the page's canonical
 * address, so that `/?utm_source=x` is the page `/` and parameters a page does not read never
 * make a new entry. Undefined for an address that is no route (never cached).
 */
import type { IncomingMessage } from 'node:http';
import { LRUCache } from 'lru-cache';
import { canonicalHref } from '../../client/href.js';
import type { TrustedProxies } from '../http/trusted-proxies.js';
import { variantOf } from './page-variant.js';

/** Canonical addresses of the targets seen lately ('' for no route): every cached page's lookup needs one. */
const canonicalOf = new LRUCache<string, string>({ max: 10_000 });

export function pageKey(req: IncomingMessage, trusted: TrustedProxies): string | undefined {
  const target = req.url ?? '/';
  let canonical = canonicalOf.get(target);
  if (canonical === undefined) {
    const q = target.indexOf('?');
    canonical = canonicalHref(q === -1 ? target : target.slice(0, q), new URLSearchParams(q === -1 ? '' : target.slice(q + 1))) ?? '';
    canonicalOf.set(target, canonical);
  }
  return canonical === '' ? undefined : `${variantOf(req, trusted)} ${canonical}`;
}
