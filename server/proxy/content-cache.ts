/**
 * The proxy's cache of content API answers (docs/decisions/002, 016 and 022). Each process keeps
 * its own in lru-cache, bounded in bytes; its fetch() makes one load for concurrent misses of a
 * key and serves a stale entry while one background refresh runs. Below it, the tier every
 * process of the service shares (Redis, or the primary of one machine's workers): a load looks
 * there first, takes the key's lock before it calls the content API (so that the service makes
 * one call per key), and stores what it fetched for the others. Only the request that makes a call
 * is asked to pay for it (`admit`: the client's budget). Around both: how long an answer is fresh
 * (per path, jittered so that keys do not all expire together), how long it may be served stale
 * while refreshing, and how long the last good answer stands in when the upstream fails. Answers
 * are validated against the contract and sanitised before they are stored; a refresh asks the
 * upstream whether its answer changed.
 */
import { LRUCache } from 'lru-cache';
import { API_PATHS } from '../../shared/contract/api-paths.js';
import { isContentError } from '../../shared/content-api.js';
import type { Config } from '../config.js';
import type { SharedAnswer, SharedTier } from '../fleet/shared-tier.js';
import { problem } from '../http/problem.js';
import { Representation } from '../http/representation.js';
import type { StoredAnswer } from '../http/stored-response.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { CacheTier, Tracing } from '../observability/tracing.js';
import type { UpstreamClient, Validators } from '../upstream/upstream-client.js';
import { upstreamError, UpstreamError } from '../upstream/upstream-client.js';
import type { ApiRequest } from './api-request.js';
import { tagsOf } from './cache-tags.js';
import { sanitizeContentFields } from './sanitize-content.js';

/** A stored answer: the payload for in-process readers, and its JSON and headers, ready to send. */
export interface CachedAnswer extends StoredAnswer {
  status: 200 | 404;
  /** The validated, sanitised payload (null for a 404). */
  data: unknown;
  /** Until when it is fresh (epoch ms). */
  freshUntil: number;
  /** Upstream latency of the call that produced it, in ms (0 when it came from the shared tier). */
  upstreamMs: number;
  /** The content API's validators, for a conditional refresh. */
  validators: Validators;
  /** What it was made from (cache-tags.ts), for purges. */
  tags: string[];
  /** Marked stale by a purge, or fetched before one and so perhaps what it was for. */
  purged?: true;
}

/** The settings of the cache's size and windows. */
type CacheWindows = Pick<
  Config,
  'CACHE_MAX_BYTES' | 'CACHE_MAX_AGE_MS' | 'CACHE_STALE_WHILE_REVALIDATE_S' | 'CACHE_STALE_IF_ERROR_S' | 'CACHE_NOT_FOUND_TTL_S'
>;

/**
 * HIT fresh in this process; SHARED fresh in the fleet's shared tier (fetched by another
 * process); MISS fetched now; STALE served stale; REFRESH a stale entry fetched again now.
 */
export type CacheStatus = 'HIT' | 'SHARED' | 'MISS' | 'STALE' | 'REFRESH';

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
/** Freshness is shortened by up to this share, at random, when an answer is fetched. */
const FRESHNESS_JITTER = 0.1;

/**
 * Asked by a load just before it calls the content API, on behalf of the request that caused it
 * (its client's budget, shedding); throws the refusal (a ContentError) to stop the call.
 */
export type Admit = () => Promise<void>;

interface FetchContext {
  request: ApiRequest;
  /** The leading request's admission; none for a background refresh, which nobody waits for. */
  admit: Admit | undefined;
  /** Set by the load that ran for this fetch when the answer did not come from the content API. */
  outcome?: 'SHARED' | 'STALE';
  /** Why the load failed, for the requests that joined it: lru-cache tells only the one that began it. */
  error?: unknown;
}

/** A load under way: its context, and its lookup's span when tracing is on. */
interface Loading {
  context: FetchContext;
  trace: unknown;
}

export interface ContentCacheDeps {
  upstream: UpstreamClient;
  config: CacheWindows & Pick<Config, 'UPSTREAM_TIMEOUT_MS'>;
  metrics: Metrics;
  log: Logger;
  /** The tier the service's processes share: Redis, or one machine's primary; none for a lone process. */
  shared?: SharedTier | undefined;
  /** Spans for lookups, when tracing is on. */
  tracing?: Tracing | undefined;
}

export class ContentCache {
  readonly #lru: LRUCache<string, CachedAnswer, FetchContext>;
  readonly #upstream: UpstreamClient;
  readonly #config: ContentCacheDeps['config'];
  readonly #metrics: Metrics;
  readonly #log: Logger;
  readonly #shared: SharedTier | undefined;
  readonly #tracing: Tracing | undefined;
  /** The longest an answer is kept after its freshness: the wider of the two stale windows. */
  readonly #keepAfterFreshMs: number;
  /** When this process last applied a purge (epoch ms). */
  #purgedAt = 0;
  /** Keys being fetched now, for those who join the fetch. */
  readonly #loading = new Map<string, Loading>();

  constructor({ upstream, config, metrics, log, shared, tracing }: ContentCacheDeps) {
    this.#upstream = upstream;
    this.#config = config;
    this.#metrics = metrics;
    this.#log = log;
    this.#shared = shared;
    this.#tracing = tracing;
    this.#keepAfterFreshMs = Math.max(config.CACHE_STALE_WHILE_REVALIDATE_S, config.CACHE_STALE_IF_ERROR_S) * 1000;
    this.#lru = new LRUCache<string, CachedAnswer, FetchContext>({
      maxSize: config.CACHE_MAX_BYTES,
      sizeCalculation: (a, key) =>
        // The parsed payload is held too; count it as about twice its JSON.
        key.length + a.body.maxBytes + a.body.body.length * 2 + 256,
      allowStale: true,
      noDeleteOnStaleGet: true,
      allowStaleOnFetchRejection: true,
      noDeleteOnFetchRejection: true,
      fetchMethod: (_key, stale, { signal, options, context }) => this.#load(context, stale, signal, options),
    });
    metrics.stats.entries = () => this.#lru.size;
    metrics.stats.bytes = () => this.#lru.calculatedSize;
  }

  /**
   * A fresh answer already in this process, returned at once; undefined when there is none (not
   * cached, stale, or being fetched). Spares the common cached hit the promises of get().
   */
  hit(request: ApiRequest): CacheResult | undefined {
    const answer = this.#lru.get(request.key, { allowStale: false });
    if (!answer || answer.freshUntil <= Date.now()) return undefined;
    this.#metrics.cacheEvents(API_PATHS[request.name].template, 'hit').inc();
    this.#tracing?.cacheHit(request.key);
    return { answer, status: 'HIT', reuseUntil: answer.freshUntil };
  }

  /**
   * The answer for a request: fresh from the cache, fetched now, or the last good one when the
   * upstream fails within the stale-if-error window. Throws a ContentError when there is none.
   * `admit` is asked only if this request is the one that calls the content API.
   */
  get(request: ApiRequest, admit?: Admit): Promise<CacheResult> {
    return this.#tracing
      ? this.#tracing.cacheLookup(request.key, () => this.#getAfterPurges(request, admit))
      : this.#getAfterPurges(request, admit);
  }

  async #getAfterPurges(request: ApiRequest, admit: Admit | undefined): Promise<CacheResult> {
    const asked = Date.now();
    const result = await this.#get(request, admit);
    // A request made after a purge that got an answer from before it (it joined a fetch that
    // began before the purge) asks once more: it must see what was published.
    if (result.answer.purged && asked > this.#purgedAt) return this.#get(request, admit, true);
    return result;
  }

  async #get(request: ApiRequest, admit: Admit | undefined, forceRefresh = false, joins = 0): Promise<CacheResult> {
    const { CACHE_STALE_WHILE_REVALIDATE_S: swr } = this.#config;
    const now = Date.now();
    let entry = this.#lru.peek(request.key, { allowStale: true });
    if (entry && now >= entry.freshUntil + this.#keepAfterFreshMs) {
      // Too old to stand in for anything: forget it and fetch afresh.
      this.#lru.delete(request.key);
      entry = undefined;
    }
    const withinSwr = entry !== undefined && now < entry.freshUntil + swr * 1000;

    const status: LRUCache.Status<string, CachedAnswer, FetchContext> = {};
    // A refresh in the background is nobody's call to pay for.
    const context: FetchContext = { request, admit: withinSwr ? undefined : admit };
    // A fetch of this key already under way, which this lookup joins.
    const joined = this.#loading.get(request.key);
    const answer = await this.#lru.fetch(request.key, {
      context,
      // Within stale-while-revalidate: answer at once, refresh in the background.
      // Beyond it: wait for the upstream, and fall back to the stale entry only if it fails.
      allowStale: withinSwr,
      forceRefresh,
      status,
    });
    if (!answer) {
      // With allowStaleOnFetchRejection, a failed fetch with nothing stale resolves to undefined;
      // only the request that began it is told why.
      const error = status.fetchError ?? joined?.context.error;
      // The fetch this request joined was refused its leader's client, over its budget: this
      // request is not that client's, so it leads a fetch of its own (a few times at most).
      if (joined && isContentError(error) && error.code === 'too_many_requests' && joins < 3) {
        return this.#get(request, admit, forceRefresh, joins + 1);
      }
      throw isContentError(error) ? error : problem('internal', 'cache returned nothing');
    }

    const result: CacheStatus =
      status.returnedStale || context.outcome === 'STALE' || answer.freshUntil <= Date.now()
        ? 'STALE'
        : context.outcome === 'SHARED'
          ? 'SHARED'
          : status.fetch === 'hit'
            ? 'HIT'
            : status.fetch === 'refresh' || status.fetch === 'stale'
              ? 'REFRESH'
              : 'MISS';
    this.#metrics.cacheEvents(API_PATHS[request.name].template, result.toLowerCase()).inc();
    if (this.#tracing) {
      const tier: CacheTier = context.outcome !== undefined ? 'redis' : status.returnedStale || status.fetch === 'hit' ? 'memory' : 'miss';
      this.#tracing.lookedUp({
        status: result,
        tier,
        // Joined another request's fetch and waited for it (not answered stale meanwhile).
        coalesced: status.fetch === 'inflight' && !status.returnedStale,
        backgroundRefresh: status.returnedStale === true && status.fetch === 'stale',
        waitedFor: joined?.trace,
      });
    }
    const staleUntil = answer.freshUntil + this.#keepAfterFreshMs;
    const reuseUntil = result === 'STALE' ? Math.min(Date.now() + STALE_REUSE_MS, staleUntil) : answer.freshUntil;
    return { answer, status: result, reuseUntil };
  }

  /**
   * Marks stale, in this process, every answer carrying one of the tags (decision 018): the next
   * request waits for the content API instead of being served what was purged, and the answer
   * still stands in if the content API fails. Returns how many it marked.
   */
  markStale(tags: ReadonlySet<string>): number {
    this.#purgedAt = Date.now();
    const before = this.purgedFreshUntil();
    const marked: [string, CachedAnswer][] = [];
    this.#lru.forEach((answer, key) => {
      // A key being fetched is left to its fetch, which began before this purge and so stores its answer stale.
      if (this.#loading.has(key)) return;
      if (answer.freshUntil > before && answer.tags.some((t) => tags.has(t))) marked.push([key, answer]);
    });
    // lru-cache must see it stale at once too, so that the next request fetches it: its clock
    // is performance.now(), and an entry is stale once more than its ttl has passed since its start.
    const start = performance.now() - 1_000;
    for (const [key, answer] of marked) this.#lru.set(key, this.#asPurged(answer), { ttl: 1, start });
    return marked.length;
  }

  /** The freshness a purged answer is given: past the stale-while-revalidate window, within stale-if-error. */
  purgedFreshUntil(): number {
    return Date.now() - this.#config.CACHE_STALE_WHILE_REVALIDATE_S * 1000 - 1;
  }

  /** A purged copy of an answer: stale for this process, and for an edge (s-maxage=0). */
  #asPurged(answer: CachedAnswer): CachedAnswer {
    const headers = [...answer.headers];
    headers[headers.indexOf('cache-control') + 1] = cacheControl(answer.status, 0, this.#config);
    return { ...answer, headers, freshUntil: this.purgedFreshUntil(), purged: true };
  }

  /** True when anything is cached: used by readiness. */
  get warm(): boolean {
    return this.#lru.size > 0;
  }

  clear(): void {
    this.#lru.clear();
  }

  /**
   * Loads a key the process does not have fresh: from the shared tier when another process has
   * fetched it, else from the content API (once for the fleet), else the last good answer.
   */
  async #load(
    context: FetchContext,
    stale: CachedAnswer | undefined,
    signal: AbortSignal,
    options: LRUCache.FetcherFetchOptions<string, CachedAnswer, FetchContext>,
  ): Promise<CachedAnswer> {
    this.#loading.set(context.request.key, { context, trace: this.#tracing?.loadToken() });
    try {
      return await this.#loadNow(context, stale, signal, options);
    } catch (error) {
      context.error = error;
      throw error;
    } finally {
      this.#loading.delete(context.request.key);
    }
  }

  async #loadNow(
    context: FetchContext,
    stale: CachedAnswer | undefined,
    signal: AbortSignal,
    options: LRUCache.FetcherFetchOptions<string, CachedAnswer, FetchContext>,
  ): Promise<CachedAnswer> {
    const { request } = context;
    const shared = this.#shared?.available ? this.#shared : undefined;
    // The freshest answer known, to ask the upstream whether it changed and to stand in if it fails.
    let previous = stale;
    let token: string | null | undefined;
    if (shared) {
      // The look-up and the lock at once: one round trip instead of two on every miss. One process
      // of the service calls the content API; the others wait for its answer.
      const [found, lock] = await Promise.all([
        shared.get(request.key),
        shared.lock(request.key, this.#config.UPSTREAM_TIMEOUT_MS + 1_000),
      ]);
      token = lock;
      if (found) {
        const answer = this.#fromShared(request, found, previous);
        if (answer.freshUntil > Date.now()) {
          if (token) void shared.unlock(request.key, token);
          return this.#keep(answer, options, context, 'SHARED');
        }
        if (!previous || answer.storedAt > previous.storedAt) previous = answer;
      }
      if (token === null) {
        const deadline = Date.now() + this.#config.UPSTREAM_TIMEOUT_MS + 500;
        const waited = await shared.waitFor(request.key, previous?.storedAt ?? 0, deadline, signal);
        if (waited) return this.#keep(this.#fromShared(request, waited, previous), options, context, 'SHARED');
      }
    }
    const fetchedSince = Date.now();
    try {
      // The request that makes the call pays for it; a refusal falls back like a failed call.
      await context.admit?.();
      let answer = await this.#fetch(request, previous, signal);
      // Fetched before a purge and stored after it, it may be what the purge was for: kept stale.
      if (this.#purgedAt >= fetchedSince) answer = this.#asPurged(answer);
      if (shared) {
        const freshUntil = await shared.put(request.key, toShared(answer), answer.tags, fetchedSince, this.purgedFreshUntil());
        if (freshUntil !== undefined && freshUntil < answer.freshUntil) answer = this.#asPurged(answer);
      }
      return this.#keep(answer, options, context);
    } catch (error) {
      // A process that starts while the content API is down has nothing of its own: the
      // fleet's last good answer stands in, within the stale-if-error window.
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
  #keep(
    answer: CachedAnswer,
    options: LRUCache.FetcherFetchOptions<string, CachedAnswer, FetchContext>,
    context: FetchContext,
    outcome?: 'SHARED',
  ): CachedAnswer {
    options.ttl = Math.max(1, answer.freshUntil - Date.now());
    if (outcome) context.outcome = outcome;
    return answer;
  }

  /** One call to the content API; an unchanged answer (304) renews `previous`. */
  async #fetch(request: ApiRequest, previous: CachedAnswer | undefined, signal: AbortSignal): Promise<CachedAnswer> {
    const path = API_PATHS[request.name].template;
    const started = performance.now();
    try {
      const res = await this.#upstream.get(request.key, signal, previous?.validators);
      const upstreamMs = performance.now() - started;
      this.#metrics.upstreamDuration(path).observe(upstreamMs / 1000);
      if (res.status === 304 && previous) {
        this.#metrics.cacheEvents(path, 'not_modified').inc();
        return this.#answer(
          request,
          previous.status,
          previous.data,
          previous.body,
          this.#freshFor(request, previous.status),
          upstreamMs,
          previous.validators,
        );
      }
      return this.#toAnswer(request, res.status, res.body, upstreamMs, res.validators);
    } catch (error) {
      // No slot for the call (upstream-gate.ts): not the content API's failure, counted where it is refused.
      if (isContentError(error) && error.code === 'busy') throw error;
      const failure = error instanceof UpstreamError ? error : upstreamError('invalid', String(error));
      this.#metrics.upstreamErrors(path, failure.kind).inc();
      // While the circuit is open every miss fails here; the breaker logs its own changes.
      if (failure.kind !== 'circuit_open') {
        this.#log.warn({ key: request.key, kind: failure.kind, err: failure.message }, 'upstream call failed');
      }
      throw failure;
    }
  }

  /** Milliseconds an answer fetched now stays fresh: its path's freshness, shortened at random. */
  #freshFor(request: ApiRequest, status: 200 | 404): number {
    if (status === 404) return this.#config.CACHE_NOT_FOUND_TTL_S * 1000;
    const override = this.#config.CACHE_MAX_AGE_MS;
    const maxAgeMs = override ?? API_PATHS[request.name].maxAge * 1000;
    return Math.round(maxAgeMs * (1 - FRESHNESS_JITTER * Math.random()));
  }

  #toAnswer(request: ApiRequest, status: number, raw: Buffer, upstreamMs: number, validators: Validators): CachedAnswer {
    if (status === 404) {
      const body = Buffer.from(JSON.stringify({ error: { code: 'not_found', message: `${request.key} does not exist` } }));
      return this.#answer(request, 404, null, new Representation(body), this.#freshFor(request, 404), upstreamMs, {});
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
    const body = new Representation(Buffer.from(JSON.stringify({ data })));
    return this.#answer(request, 200, data, body, this.#freshFor(request, 200), upstreamMs, validators);
  }

  /** An answer as another process stored it; its body object is reused when it has not changed. */
  #fromShared(request: ApiRequest, found: SharedAnswer, previous: CachedAnswer | undefined): CachedAnswer {
    const bytes = Buffer.from(found.json);
    const same = previous?.body.body.equals(bytes);
    const body = same ? previous!.body : new Representation(bytes);
    const data = same ? previous!.data : found.status === 200 ? (JSON.parse(found.json) as { data: unknown }).data : null;
    const answer = this.#answer(request, found.status, data, body, found.freshUntil - found.storedAt, 0, {
      etag: found.etag,
      lastModified: found.lastModified,
    });
    answer.storedAt = found.storedAt;
    answer.freshUntil = found.freshUntil;
    return answer;
  }

  #answer(
    request: ApiRequest,
    status: 200 | 404,
    data: unknown,
    body: Representation,
    freshMs: number,
    upstreamMs: number,
    validators: Validators,
  ): CachedAnswer {
    const storedAt = Date.now();
    const tags = tagsOf(request, data);
    return {
      status,
      data,
      body,
      headers: [
        'content-type',
        'application/json; charset=utf-8',
        'cache-control',
        cacheControl(status, Math.floor(freshMs / 1000), this.#config),
        'vary',
        'Accept-Encoding',
        'cache-tag',
        tags.join(', '),
      ],
      storedAt,
      freshUntil: storedAt + freshMs,
      upstreamMs,
      validators,
      tags,
    };
  }
}

/**
 * How long others may keep an answer (docs/decisions/018): a shared cache (an edge) for as long as
 * it is fresh, then stale within the windows; a browser asks again every time (max-age=0, ETag),
 * so that a publish, which the service and the edge are told of, reaches it at once.
 */
export function cacheControl(
  status: number,
  sharedMaxAge: number,
  windows: Pick<Config, 'CACHE_STALE_WHILE_REVALIDATE_S' | 'CACHE_STALE_IF_ERROR_S'>,
): string {
  if (status === 404) return `public, max-age=0, s-maxage=${sharedMaxAge}`;
  return `public, max-age=0, s-maxage=${sharedMaxAge}, stale-while-revalidate=${windows.CACHE_STALE_WHILE_REVALIDATE_S}, stale-if-error=${windows.CACHE_STALE_IF_ERROR_S}`;
}

/** What the fleet shares of an answer. */
function toShared(answer: CachedAnswer): SharedAnswer {
  return {
    status: answer.status,
    json: answer.body.body.toString('utf8'),
    storedAt: answer.storedAt,
    freshUntil: answer.freshUntil,
    etag: answer.validators.etag,
    lastModified: answer.validators.lastModified,
  };
}
