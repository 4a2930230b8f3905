/**
 * Rendered pages, cached per canonical address and page variant (page-variant.ts) and answered ahead of Express
 * (docs/decisions/008), and the one not-found page of each variant (page-key.ts, docs/decisions/032).
 * A page is kept only as long as the answers it was built from may be reused, so it is never
 * older than its data may be.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { PurgeGeneration } from '../fleet/purge-generation.js';
import { sendStored, type StoredAnswer } from '../http/stored-response.js';
import { pageHitChannel } from '../observability/diagnostics.js';
import { observe } from '../observability/request-observer.js';
import type { TrustedProxies } from '../http/trusted-proxies.js';
import { gaugeOnScrape, type Metrics } from '../observability/metrics.js';
import { notFoundKey, pageKey } from './page-key.js';
import { variantOf, varyOf } from './page-variant.js';
import { WALL_CLOCK } from '../reliability/wall-clock.js';
import { shrinkLru } from '../reliability/memory-pressure.js';

export interface CachedPage extends StoredAnswer {
  /** The metrics label of the page's route. */
  route: string;
  /** What it was drawn from (the tags of every answer it read, and its own address). */
  tags: readonly string[];
}

/** Pages shorter-lived than this are not worth storing. */
const MIN_TTL_MS = 250;

export class PageCache {
  readonly #lru: LRUCache<string, CachedPage>;

  constructor(
    maxBytes: number,
    private readonly trusted: TrustedProxies,
    private readonly metrics: Metrics,
    private readonly purges: PurgeGeneration,
  ) {
    this.#lru = new LRUCache<string, CachedPage>({
      maxSize: maxBytes,
      sizeCalculation: (p, key) => key.length + p.body.maxBytes + 512,
      perf: WALL_CLOCK,
    });
    gaugeOnScrape(metrics.registry, { name: 'page_cache_entries', help: 'Pages in the page cache.' }, () => this.#lru.size);
  }

  /** A page that had to be rendered, counted beside the hits. */
  missed(route: string): void {
    this.metrics.pageCacheEvents(route, 'miss').inc();
  }

  /** The purge generation now: read when a render begins, and given back to `store`. */
  get generation(): number {
    return this.purges.now;
  }

  /** Whether a page that may be reused until `reuseUntil` is worth keeping (a page of search results is not). */
  keeps(reuseUntil: number): boolean {
    return reuseUntil - Date.now() >= MIN_TTL_MS;
  }

  /** Keeps a page whose render began at purge generation `renderedAt`, unless a purge came since: it may show what was purged. */
  store(key: string, page: CachedPage, reuseUntil: number, renderedAt: number): void {
    if (this.keeps(reuseUntil) && !this.purges.purgedSince(renderedAt)) this.#lru.set(key, page, { ttl: reuseUntil - Date.now() });
  }

  /** Answers a GET or HEAD for a route's page from the cache; false when the page is not there. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    return this.#serve(req, res, pageKey);
  }

  /** Answers a page request that names no route with the not-found page, if it is kept. */
  serveNotFound(req: IncomingMessage, res: ServerResponse): boolean {
    return this.#serve(req, res, notFoundKey);
  }

  #serve(req: IncomingMessage, res: ServerResponse, keyOf: typeof pageKey): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const key = keyOf(req, this.trusted);
    const page = key === undefined ? undefined : this.#lru.get(key);
    if (!page) return false;
    observe(res, { route: page.route, cache: 'HIT' });
    this.metrics.pageCacheEvents(page.route, 'hit').inc();
    if (pageHitChannel.hasSubscribers) pageHitChannel.publish({ res, variant: variantOf(req, this.trusted).name });
    sendStored(req, res, page, ['vary', varyOf(req, this.trusted), 'x-cache', 'HIT', 'server-timing', 'cache;desc=HIT']);
    return true;
  }

  /** Drops every page carrying one of the tags; it is drawn again, from fresh data, when next asked for. */
  purge(tags: ReadonlySet<string>): number {
    const gone: string[] = [];
    this.#lru.forEach((page, key) => {
      if (page.tags.some((t) => tags.has(t))) gone.push(key);
    });
    for (const key of gone) this.#lru.delete(key);
    return gone.length;
  }

  get size(): number {
    return this.#lru.size;
  }

  /** Bytes held; and near the memory limit, the least recently used pages let go until at most `bytes` are. */
  readonly memoryHeld = () => this.#lru.calculatedSize;
  readonly shrinkTo = (bytes: number) => shrinkLru(this.#lru, bytes);
}
