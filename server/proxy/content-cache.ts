/**
 * The proxy's cache of content API answers (docs/decisions/002, 016 and 022): each process's own
 * in lru-cache (bounded in bytes; one load for concurrent misses of a key; a stale entry served
 * while one refresh runs), over the tier the service's processes share (Redis, or one machine's
 * primary), where a load looks first and takes the key's lock before it calls the content API.
 * Only the request that makes a call pays for it (`admit`). Answers are made in cached-answer.ts;
 * lookups are published on diagnostics channels (observability/diagnostics.ts). A load whose
 * entry the cache lets go of (evicted, replaced, deleted) runs on to its answer, which its waiters
 * get: the cache's housekeeping never cancels a call nor fails a request (docs/decisions/033).
 */
import { LRUCache } from 'lru-cache';
import { API_PATHS } from '../../shared/contract/api-paths.js';
import { isContentError } from '../../shared/content-api.js';
import type { Config } from '../settings/config.js';
import type { PurgeGeneration } from '../fleet/purge-generation.js';
import type { SharedTier } from '../fleet/shared-tier.js';
import { problem } from '../http/problem.js';
import { MEDIA_TAG_PREFIX } from '../media/media-address.js';
import { hitChannel, lookupChannel, type LookupEvent } from '../observability/diagnostics.js';
import type { Logger } from '../observability/logger.js';
import { gaugeOnScrape, type Metrics } from '../observability/metrics.js';
import type { UpstreamClient } from '../upstream/upstream-client.js';
import type { ApiRequest } from './api-request.js';
import {
  answerFromShared,
  asPurged,
  fetchAnswer,
  purgedFreshUntil,
  statusOf,
  toShared,
  type Admit,
  type CachedAnswer,
  type CacheResult,
  type CacheWindows,
} from './cached-answer.js';
import type { ContentReader } from './content-reader.js';
import { WALL_CLOCK } from '../reliability/wall-clock.js';
import { shrinkLru } from '../reliability/memory-pressure.js';

interface FetchContext {
  request: ApiRequest;
  /** The leading request's admission; none for a background refresh, which nobody waits for. */
  admit: Admit | undefined;
  /** The leading request's lookup, for those who wait for its fetch (when observed). */
  lookup: LookupEvent | undefined;
  /** Set by the load that ran for this fetch when the answer did not come from the content API. */
  outcome?: 'SHARED' | 'STALE';
  /** Why the load failed, for the requests that joined it: lru-cache tells only the one that began it. */
  error?: unknown;
}

/** How long a page built from stale data may be reused: long enough to spare a failing upstream. */
const STALE_REUSE_MS = 2_000;
type FetchOptions = LRUCache.FetcherFetchOptions<string, CachedAnswer, FetchContext>;

export interface ContentCacheDeps {
  upstream: UpstreamClient;
  /** Makes what the content API sent into what the service answers. */
  reader: ContentReader;
  config: CacheWindows & Pick<Config, 'UPSTREAM_TIMEOUT_MS'>;
  /** Its bound, in bytes: its share of the memory budget (settings/memory-budget.ts). */
  maxBytes: number;
  metrics: Metrics;
  log: Logger;
  /** The tier the service's processes share: Redis, or one machine's primary; none for a lone process. */
  shared?: SharedTier | undefined;
  purges: PurgeGeneration;
}

export class ContentCache {
  readonly #lru: LRUCache<string, CachedAnswer, FetchContext>;
  readonly #deps: ContentCacheDeps;
  readonly #config: ContentCacheDeps['config'];
  /** The longest an answer is kept after its freshness: the wider of the two stale windows. */
  readonly #keepAfterFreshMs: number;
  /** The loads under way, by key, for those who join them. */
  readonly #loading = new Map<string, FetchContext>();

  constructor(deps: ContentCacheDeps) {
    this.#deps = deps;
    this.#config = deps.config;
    this.#keepAfterFreshMs = Math.max(this.#config.CACHE_STALE_WHILE_REVALIDATE_S, this.#config.CACHE_STALE_IF_ERROR_S) * 1000;
    this.#lru = new LRUCache<string, CachedAnswer, FetchContext>({
      maxSize: deps.maxBytes,
      sizeCalculation: (a, key) =>
        // The parsed payload is held too; count it as about twice its JSON.
        key.length + a.body.maxBytes + a.body.body.length * 2 + 256,
      allowStale: true,
      noDeleteOnStaleGet: true,
      allowStaleOnFetchRejection: true,
      noDeleteOnFetchRejection: true,
      // lru-cache aborts a load whose entry it evicts, replaces or deletes: ours run on (they pass no signal).
      ignoreFetchAbort: true,
      fetchMethod: (_key, stale, { options, context }) => this.#load(context, stale, options),
      perf: WALL_CLOCK,
    });
    gaugeOnScrape(deps.metrics.registry, { name: 'proxy_cache_entries', help: 'Entries in the proxy cache.' }, () => this.#lru.size);
    gaugeOnScrape(deps.metrics.registry, { name: 'proxy_cache_bytes', help: 'Bytes in the proxy cache.' }, () => this.#lru.calculatedSize);
  }

  /** A fresh answer already in this process, at once (sparing a hit get()'s promises); else undefined. */
  hit(request: ApiRequest): CacheResult | undefined {
    const answer = this.#lru.get(request.key, { allowStale: false });
    if (!answer || answer.freshUntil <= Date.now()) return undefined;
    this.#deps.metrics.cacheEvents(API_PATHS[request.name].template, 'hit').inc();
    if (hitChannel.hasSubscribers) hitChannel.publish({ key: request.key });
    return { answer, status: 'HIT', reuseUntil: answer.freshUntil };
  }

  /**
   * The answer for a request: fresh from the cache, fetched now, or the last good one when the
   * upstream fails within the stale-if-error window. Throws a ContentError when there is none.
   * `admit` is asked only if this request is the one that calls the content API.
   */
  get(request: ApiRequest, admit?: Admit): Promise<CacheResult> {
    if (!lookupChannel.hasSubscribers) return this.#getAfterPurges(request, admit, undefined);
    const lookup: LookupEvent = { key: request.key };
    return lookupChannel.tracePromise(() => this.#getAfterPurges(request, admit, lookup), lookup);
  }

  async #getAfterPurges(request: ApiRequest, admit: Admit | undefined, lookup: LookupEvent | undefined): Promise<CacheResult> {
    const asked = this.#deps.purges.now;
    const result = await this.#get(request, admit, lookup);
    // Asked after a purge, answered from before it (a fetch it joined began earlier): ask once more.
    if (result.answer.purged && !this.#deps.purges.purgedSince(asked)) return this.#get(request, admit, lookup, true);
    return result;
  }

  async #get(
    request: ApiRequest,
    admit: Admit | undefined,
    lookup: LookupEvent | undefined,
    force = false,
    joins = 0,
  ): Promise<CacheResult> {
    const now = Date.now();
    let entry = this.#lru.peek(request.key, { allowStale: true });
    if (entry && now >= entry.freshUntil + this.#keepAfterFreshMs) {
      // Too old to stand in for anything: forget it and fetch afresh (or join the fetch under way).
      if (!this.#loading.has(request.key)) this.#lru.delete(request.key);
      entry = undefined;
    }
    const withinSwr = entry !== undefined && now < entry.freshUntil + this.#config.CACHE_STALE_WHILE_REVALIDATE_S * 1000;
    const status: LRUCache.Status<string, CachedAnswer, FetchContext> = {};
    // A refresh in the background is nobody's call to pay for.
    const context: FetchContext = { request, admit: withinSwr ? undefined : admit, lookup };
    // A fetch of this key already under way, which this lookup joins.
    const joined = this.#loading.get(request.key);
    const answer = await this.#lru.fetch(request.key, {
      context,
      // Within stale-while-revalidate: answer at once, refresh behind; beyond it, wait (stale only if the call fails).
      allowStale: withinSwr,
      // An answer a purge made stale is stale by its freshness, whatever lru-cache's TTL says.
      forceRefresh: force || (entry !== undefined && entry.freshUntil <= now),
      status,
    });
    if (!answer) {
      // (allowStaleOnFetchRejection) A failed fetch with nothing stale gives undefined; only its leader is told why.
      const error = status.fetchError ?? joined?.error;
      // The fetch this request joined was refused its leader's client, over its budget: this
      // request is not that client's, so it leads a fetch of its own (a few times at most).
      if (joined && isContentError(error) && error.code === 'too_many_requests' && joins < 3) {
        return this.#get(request, admit, lookup, force, joins + 1);
      }
      throw isContentError(error) ? error : problem('internal', 'cache returned nothing');
    }
    // Answered at once with what it had, while a refresh runs (lru-cache says so only of what it found stale itself).
    const answeredStale = status.returnedStale === true || (withinSwr && answer.freshUntil <= now && status.fetch === 'refresh');
    const result = statusOf(answeredStale || answer.freshUntil <= Date.now(), context.outcome, status.fetch);
    this.#deps.metrics.cacheEvents(API_PATHS[request.name].template, result.toLowerCase()).inc();
    if (lookup) {
      lookup.status = result;
      lookup.tier = context.outcome !== undefined ? 'shared' : answeredStale || status.fetch === 'hit' ? 'memory' : 'miss';
      // Joined another request's fetch and waited for it (not answered stale meanwhile).
      lookup.coalesced = status.fetch === 'inflight' && !answeredStale;
      lookup.backgroundRefresh = answeredStale && (status.fetch === 'stale' || status.fetch === 'refresh');
      lookup.waitedFor = joined?.lookup;
    }
    const staleUntil = answer.freshUntil + this.#keepAfterFreshMs;
    const reuseUntil = result === 'STALE' ? Math.min(Date.now() + STALE_REUSE_MS, staleUntil) : answer.freshUntil;
    return { answer, status: result, reuseUntil };
  }

  /**
   * Marks stale, in this process, every answer carrying one of the tags (decision 018): the next
   * request waits for the content API instead of being served what was purged, and the answer
   * still stands in if the content API fails. Returns how many it marked, and their images' tags.
   */
  markStale(tags: ReadonlySet<string>): { marked: number; images: Set<string> } {
    const before = this.purgedFreshUntil();
    const images = new Set<string>();
    let marked = 0;
    this.#lru.forEach((answer, key) => {
      // A key being fetched is left to its fetch, which began before this purge and so stores its answer stale.
      if (this.#loading.has(key) || answer.freshUntil <= before || !answer.tags.some((t) => tags.has(t))) return;
      this.#lru.set(key, asPurged(answer, before, this.#config), { noUpdateTTL: true });
      marked++;
      for (const tag of answer.tags) if (tag.startsWith(MEDIA_TAG_PREFIX)) images.add(tag);
    });
    return { marked, images };
  }

  /** The freshness a purged answer is given: past the stale-while-revalidate window, within stale-if-error. */
  purgedFreshUntil(): number {
    return purgedFreshUntil(this.#config);
  }

  /** Bytes held; and near the memory limit, the least recently used answers let go until at most `bytes` are. */
  readonly memoryHeld = () => this.#lru.calculatedSize;
  readonly shrinkTo = (bytes: number) => shrinkLru(this.#lru, bytes);

  /** An answer held, fresh or stale (readiness); not `size`, which counts a call under way. Iterators skip calls; `peek` sees a refresh's. */
  get warm(): boolean {
    return !this.#lru.values().next().done || [...this.#loading.keys()].some((key) => this.#lru.peek(key) !== undefined);
  }

  /**
   * Loads a key the process does not have fresh: from the shared tier when another process has
   * fetched it, else from the content API (once for the service), else the last good answer.
   */
  async #load(context: FetchContext, stale: CachedAnswer | undefined, options: FetchOptions): Promise<CachedAnswer> {
    const { key } = context.request;
    this.#loading.set(key, context);
    try {
      return await this.#loadNow(context, stale, options);
    } catch (error) {
      context.error = error;
      throw error;
    } finally {
      // A load let go of by the cache may end after another load of its key began: that one stays.
      if (this.#loading.get(key) === context) this.#loading.delete(key);
    }
  }

  async #loadNow(context: FetchContext, stale: CachedAnswer | undefined, options: FetchOptions): Promise<CachedAnswer> {
    const { request } = context;
    const shared = this.#deps.shared?.available ? this.#deps.shared : undefined;
    // The freshest answer known, to ask the upstream whether it changed and to stand in if it fails.
    let previous = stale;
    let token: string | null | undefined;
    let generation: number | undefined;
    if (shared) {
      // Look-up with lock, and purge generation, in one round trip: one process calls, the others wait for its answer.
      const [looked] = await Promise.all([
        shared.lookOrLock(request.key, this.#config.UPSTREAM_TIMEOUT_MS + 1_000, Date.now()),
        shared.generation().then((g) => (generation = g)),
      ]);
      token = looked?.token;
      const found = looked?.answer;
      if (found) {
        const answer = answerFromShared(request, found, previous, this.#config);
        if (answer.freshUntil > Date.now()) {
          if (token) void shared.unlock(request.key, token);
          return this.#keep(answer, options, context, 'SHARED');
        }
        if (!previous || answer.storedAt > previous.storedAt) previous = answer;
      }
      if (token === null) {
        const deadline = Date.now() + this.#config.UPSTREAM_TIMEOUT_MS + 500;
        const waited = await shared.waitFor(request.key, previous?.storedAt ?? 0, deadline);
        if (waited) return this.#keep(answerFromShared(request, waited, previous, this.#config), options, context, 'SHARED');
      }
    }
    const fetchedAt = this.#deps.purges.now;
    try {
      // The request that makes the call pays for it (a refusal falls back like a failed call); with the circuit open none is made or paid.
      if (!this.#deps.upstream.paused) await context.admit?.();
      let answer = await fetchAnswer(request, previous, this.#deps);
      // Fetched before a purge (here; anywhere, by the shared generation) and kept after it: kept stale.
      if (this.#deps.purges.purgedSince(fetchedAt)) answer = asPurged(answer, this.purgedFreshUntil(), this.#config);
      if (shared && generation !== undefined) {
        const freshUntil = await shared.put(request.key, toShared(answer), answer.tags, generation, this.purgedFreshUntil());
        if (freshUntil !== undefined && freshUntil < answer.freshUntil) answer = asPurged(answer, freshUntil, this.#config);
      }
      return this.#keep(answer, options, context);
    } catch (error) {
      // Started while the content API is down: the service's last good answer stands in (stale-if-error).
      if (previous && previous !== stale && Date.now() < previous.freshUntil + this.#config.CACHE_STALE_IF_ERROR_S * 1000) {
        options.ttl = STALE_REUSE_MS;
        context.outcome = 'STALE';
        return previous;
      }
      throw error;
    } finally {
      // Not waited for: the answer is stored first (one connection, in order), and whoever waits has it.
      if (token) void shared?.unlock(request.key, token);
    }
  }

  /** Stored in this process until the end of its freshness. */
  #keep(answer: CachedAnswer, options: FetchOptions, context: FetchContext, outcome?: 'SHARED'): CachedAnswer {
    options.ttl = Math.max(1, answer.freshUntil - Date.now());
    if (outcome) context.outcome = outcome;
    return answer;
  }
}
