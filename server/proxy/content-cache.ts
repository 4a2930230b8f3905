/**
 * The proxy's cache of content API answers: lru-cache bounded in bytes. Its fetch() makes one
 * upstream call for concurrent misses of a key and serves a stale entry while one background
 * refresh runs. Around it: how long an entry is fresh (per path), how long it may be served
 * stale while refreshing, and how long the last good answer stands in when the upstream fails.
 * Answers are validated against the contract and sanitised before they are stored.
 */
import { LRUCache } from 'lru-cache';
import { API_PATHS } from '../../shared/contract/api-paths.js';
import { isContentError } from '../../shared/content-api.js';
import type { Config } from '../config.js';
import { problem } from '../http/problem.js';
import { Representation } from '../http/representation.js';
import type { StoredAnswer } from '../http/stored-response.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import { upstreamError, UpstreamError } from '../upstream/upstream-client.js';
import type { ApiRequest } from './api-request.js';
import { sanitizeContentFields } from './sanitize-content.js';

/** A stored answer: the payload for in-process readers, and its JSON and headers, ready to send. */
export interface CachedAnswer extends StoredAnswer {
  status: 200 | 404;
  /** The validated, sanitised payload (null for a 404). */
  data: unknown;
  /** Seconds the answer is fresh. */
  maxAge: number;
  /** Upstream latency of the call that produced it, in ms. */
  upstreamMs: number;
}

/** The settings of the cache's size and windows. */
export type CacheWindows = Pick<
  Config,
  'CACHE_MAX_BYTES' | 'CACHE_MAX_AGE_MS' | 'CACHE_STALE_WHILE_REVALIDATE_S' | 'CACHE_STALE_IF_ERROR_S' | 'CACHE_NOT_FOUND_TTL_S'
>;

/** HIT fresh; MISS fetched now; STALE served stale; REFRESH stale entry fetched again now. */
export type CacheStatus = 'HIT' | 'MISS' | 'STALE' | 'REFRESH';

export interface CacheResult {
  answer: CachedAnswer;
  status: CacheStatus;
  /**
   * Until when something built from this answer (a rendered page) may be reused: the end of
   * its freshness; for a stale answer a short while, within the window it may be served in.
   */
  reuseUntil: number;
}

/** How long a page built from stale data may be reused: long enough to spare a failing upstream. */
const STALE_REUSE_MS = 2_000;

interface FetchContext {
  request: ApiRequest;
}

export class ContentCache {
  readonly #lru: LRUCache<string, CachedAnswer, FetchContext>;

  constructor(
    private readonly upstream: UpstreamClient,
    private readonly config: CacheWindows,
    private readonly metrics: Metrics,
    private readonly log: Logger,
  ) {
    this.#lru = new LRUCache<string, CachedAnswer, FetchContext>({
      maxSize: config.CACHE_MAX_BYTES,
      sizeCalculation: (a, key) =>
        // The parsed payload is held too; count it as about twice its JSON.
        key.length + a.body.maxBytes + a.body.body.length * 2 + 256,
      allowStale: true,
      noDeleteOnStaleGet: true,
      allowStaleOnFetchRejection: true,
      noDeleteOnFetchRejection: true,
      fetchMethod: (_key, _stale, { signal, options, context }) => this.#load(context.request, signal, options),
    });
    metrics.cacheStats.entries = () => this.#lru.size;
    metrics.cacheStats.bytes = () => this.#lru.calculatedSize;
  }

  #maxAgeOf(request: ApiRequest): number {
    const override = this.config.CACHE_MAX_AGE_MS;
    return override !== undefined ? override / 1000 : API_PATHS[request.name].maxAge;
  }

  /**
   * A fresh answer already in the cache, returned at once; undefined when there is none (not
   * cached, stale, or being fetched). Spares the common cached hit the promises of get().
   */
  hit(request: ApiRequest): CacheResult | undefined {
    const answer = this.#lru.get(request.key, { allowStale: false });
    if (!answer) return undefined;
    this.metrics.cacheEvents(API_PATHS[request.name].template, 'hit').inc();
    return { answer, status: 'HIT', reuseUntil: answer.storedAt + answer.maxAge * 1000 };
  }

  /**
   * The answer for a request: fresh from the cache, fetched now, or the last good one when the
   * upstream fails within the stale-if-error window. Throws a ContentError when there is none.
   */
  async get(request: ApiRequest): Promise<CacheResult> {
    const path = API_PATHS[request.name].template;
    const { CACHE_STALE_WHILE_REVALIDATE_S: staleWhileRevalidateS, CACHE_STALE_IF_ERROR_S: staleIfErrorS } = this.config;
    let entry = this.#lru.peek(request.key, { allowStale: true });
    const ageS = entry ? (Date.now() - entry.storedAt) / 1000 : 0;
    if (entry && ageS >= entry.maxAge + Math.max(staleWhileRevalidateS, staleIfErrorS)) {
      // Too old to stand in for anything: forget it and fetch afresh.
      this.#lru.delete(request.key);
      entry = undefined;
    }
    const withinSwr = entry !== undefined && ageS < entry.maxAge + staleWhileRevalidateS;

    const status: LRUCache.Status<string, CachedAnswer, FetchContext> = {};
    const answer = await this.#lru.fetch(request.key, {
      context: { request },
      // Within stale-while-revalidate: answer at once, refresh in the background.
      // Beyond it: wait for the upstream, and fall back to the stale entry only if it fails.
      allowStale: withinSwr,
      status,
    });
    // With allowStaleOnFetchRejection, a failed fetch with nothing stale resolves to undefined.
    if (!answer) throw isContentError(status.fetchError) ? status.fetchError : problem('internal', 'cache returned nothing');

    const result: CacheStatus = status.returnedStale
      ? 'STALE'
      : status.fetch === 'hit'
        ? 'HIT'
        : status.fetch === 'refresh' || status.fetch === 'stale'
          ? 'REFRESH'
          : 'MISS';
    this.metrics.cacheEvents(path, result.toLowerCase()).inc();
    const freshUntil = answer.storedAt + answer.maxAge * 1000;
    const staleUntil = freshUntil + Math.max(staleWhileRevalidateS, staleIfErrorS) * 1000;
    const reuseUntil = result === 'STALE' ? Math.min(Date.now() + STALE_REUSE_MS, staleUntil) : freshUntil;
    return { answer, status: result, reuseUntil };
  }

  /** True when anything is cached: used by readiness. */
  get warm(): boolean {
    return this.#lru.size > 0;
  }

  clear(): void {
    this.#lru.clear();
  }

  async #load(
    request: ApiRequest,
    signal: AbortSignal,
    options: LRUCache.FetcherFetchOptions<string, CachedAnswer, FetchContext>,
  ): Promise<CachedAnswer> {
    const path = API_PATHS[request.name].template;
    const started = performance.now();
    try {
      const res = await this.upstream.get(request.key, signal);
      const upstreamMs = performance.now() - started;
      this.metrics.upstreamDuration(path).observe(upstreamMs / 1000);
      const answer = this.#toAnswer(request, res.status, res.body, upstreamMs);
      options.ttl = answer.maxAge * 1000;
      return answer;
    } catch (error) {
      const failure = error instanceof UpstreamError ? error : upstreamError('invalid', String(error));
      this.metrics.upstreamErrors(path, failure.kind).inc();
      // While the circuit is open every miss fails here; the breaker logs its own changes.
      if (failure.kind !== 'circuit_open') {
        this.log.warn({ key: request.key, kind: failure.kind, err: failure.message }, 'upstream call failed');
      }
      throw failure;
    }
  }

  #toAnswer(request: ApiRequest, status: number, raw: Buffer, upstreamMs: number): CachedAnswer {
    if (status === 404) {
      const body = Buffer.from(JSON.stringify({ error: { code: 'not_found', message: `${request.key} does not exist` } }));
      return this.#answer(404, null, body, this.config.CACHE_NOT_FOUND_TTL_S, upstreamMs);
    }
    if (status !== 200) throw upstreamError('status', `the content API answered ${status}`);
    let json: unknown;
    try {
      json = JSON.parse(raw.toString('utf8'));
    } catch {
      throw upstreamError('invalid', 'the content API answered with malformed JSON');
    }
    const parsed = API_PATHS[request.name].answer.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw upstreamError(
        'invalid',
        `the content API's answer does not fit the contract at ${issue.path.join('.') || '(root)'}: ${issue.message}`,
      );
    }
    const data = sanitizeContentFields(parsed.data.data);
    return this.#answer(200, data, Buffer.from(JSON.stringify({ data })), this.#maxAgeOf(request), upstreamMs);
  }

  #answer(status: 200 | 404, data: unknown, json: Buffer, maxAge: number, upstreamMs: number): CachedAnswer {
    const { CACHE_STALE_WHILE_REVALIDATE_S: swr, CACHE_STALE_IF_ERROR_S: sie } = this.config;
    const age = Math.floor(maxAge);
    const cacheControl =
      status === 404 ? `public, max-age=${age}` : `public, max-age=${age}, stale-while-revalidate=${swr}, stale-if-error=${sie}`;
    return {
      status,
      data,
      body: new Representation(json),
      headers: ['content-type', 'application/json; charset=utf-8', 'cache-control', cacheControl, 'vary', 'Accept-Encoding'],
      storedAt: Date.now(),
      maxAge,
      upstreamMs,
    };
  }
}
