/**
 * Rendered pages, cached per URL and scaling mode and answered ahead of Express. A page is kept
 * only as long as the answers it was built from may be reused (render-tracking.ts), so it is
 * never older than its data may be.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import { etagMatches, Representation } from '../http/representation.js';
import type { HeaderSet } from '../http/security-headers.js';
import { observe, requestIdOf } from '../observability/request-observer.js';
import { scaleModeFor, type ScaleMode } from './scale-mode.js';

interface CachedPage {
  html: Representation;
  /** The metrics label of the page's route. */
  route: string;
  /** Headers of the page itself (content type, cache policy, Link), as flat pairs. */
  headers: string[];
  storedAt: number;
}

/** Pages shorter-lived than this are not worth storing. */
const MIN_TTL_MS = 250;

export function pageCacheKey(url: string, mode: ScaleMode): string {
  return `${mode} ${url}`;
}

export class PageCache {
  readonly #lru: LRUCache<string, CachedPage>;
  readonly #securityPairs: string[];

  constructor(maxBytes: number, security: HeaderSet) {
    this.#lru = new LRUCache<string, CachedPage>({
      maxSize: maxBytes,
      sizeCalculation: (p, key) => key.length + p.html.maxBytes + 512,
    });
    this.#securityPairs = Object.entries(security).flat();
  }

  store(key: string, html: Buffer, route: string, headers: Record<string, string>, reuseUntil: number): void {
    const ttl = reuseUntil - Date.now();
    if (ttl < MIN_TTL_MS) return;
    const page: CachedPage = { html: new Representation(html), route, headers: Object.entries(headers).flat(), storedAt: Date.now() };
    this.#lru.set(key, page, { ttl });
  }

  /** Answers a GET or HEAD from the cache; false when the page is not there. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const page = this.#lru.get(pageCacheKey(req.url ?? '/', scaleModeFor(req.headers['user-agent'])));
    if (!page) return false;
    observe(res, { route: page.route, cache: 'HIT' });
    const out = [
      ...this.#securityPairs,
      ...page.headers,
      'x-request-id', requestIdOf(res),
      'etag', page.html.etag,
      'age', String(Math.floor((Date.now() - page.storedAt) / 1000)),
      'x-cache', 'HIT',
      'server-timing', 'cache;desc=HIT',
    ];
    if (etagMatches(req.headers['if-none-match'], page.html.etag)) {
      res.writeHead(304, out).end();
      return true;
    }
    const { body, encoding } = page.html.pick(req.headers['accept-encoding']);
    if (encoding) out.push('content-encoding', encoding);
    out.push('content-length', String(body.length));
    res.writeHead(200, out).end(req.method === 'HEAD' ? undefined : body);
    return true;
  }

  get size(): number {
    return this.#lru.size;
  }
}
