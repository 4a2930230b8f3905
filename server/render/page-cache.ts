/**
 * Rendered pages, cached per canonical address and page variant (page-variant.ts) and answered ahead of Express
 * (docs/decisions/008). A page is kept only as long as the answers it was built from may be
 * reused, so it is never older than its data may be.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import { sendStored, type StoredAnswer } from '../http/stored-response.js';
import { observe } from '../observability/request-observer.js';
import type { TrustedProxies } from '../http/trusted-proxies.js';
import { pageKey } from './page-key.js';
import { varyOf } from './page-variant.js';

export interface CachedPage extends StoredAnswer {
  /** The metrics label of the page's route. */
  route: string;
}

/** Pages shorter-lived than this are not worth storing. */
const MIN_TTL_MS = 250;

export class PageCache {
  readonly #lru: LRUCache<string, CachedPage>;

  constructor(
    maxBytes: number,
    private readonly trusted: TrustedProxies,
  ) {
    this.#lru = new LRUCache<string, CachedPage>({
      maxSize: maxBytes,
      sizeCalculation: (p, key) => key.length + p.body.maxBytes + 512,
    });
  }

  store(key: string, page: CachedPage, reuseUntil: number): void {
    const ttl = reuseUntil - Date.now();
    if (ttl >= MIN_TTL_MS) this.#lru.set(key, page, { ttl });
  }

  /** Answers a GET or HEAD from the cache; false when the page is not there. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const key = pageKey(req, this.trusted);
    const page = key === undefined ? undefined : this.#lru.get(key);
    if (!page) return false;
    observe(res, { route: page.route, cache: 'HIT' });
    sendStored(req, res, page, ['vary', varyOf(req, this.trusted), 'x-cache', 'HIT', 'server-timing', 'cache;desc=HIT']);
    return true;
  }

  get size(): number {
    return this.#lru.size;
  }
}
