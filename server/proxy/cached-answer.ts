/**
 * A content API answer as the proxy keeps and sends it (content-cache.ts): made from what the
 * content API sent (validated against the contract and sanitised, once, before anything keeps
 * it), or from what another process stored in the shared tier; with its freshness, its tags for
 * purges and its headers, ready to send.
 */
import { API_PATHS } from '../../shared/contract/api-paths.js';
import type { Config } from '../settings/config.js';
import type { SharedAnswer } from '../fleet/shared-tier.js';
import { Representation } from '../http/representation.js';
import type { StoredAnswer } from '../http/stored-response.js';
import { isContentError } from '../../shared/content-api.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { upstreamError, UpstreamError, type UpstreamClient, type Validators } from '../upstream/upstream-client.js';
import type { ApiRequest } from './api-request.js';
import { tagsOf } from './cache-tags.js';
import type { ContentReader } from './content-reader.js';

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

/**
 * HIT fresh in this process; SHARED fresh in the shared tier (fetched by another process); MISS
 * fetched now; STALE served stale; REFRESH a stale entry fetched again now.
 */
export type CacheStatus = 'HIT' | 'SHARED' | 'MISS' | 'STALE' | 'REFRESH';

/**
 * How a lookup was answered: stale, else from where its load found the answer (the shared tier), else
 * as lru-cache's fetch status says.
 */
export function statusOf(stale: boolean, outcome: 'SHARED' | 'STALE' | undefined, fetch: string | undefined): CacheStatus {
  if (stale || outcome === 'STALE') return 'STALE';
  if (outcome === 'SHARED') return 'SHARED';
  if (fetch === 'hit') return 'HIT';
  return fetch === 'refresh' || fetch === 'stale' ? 'REFRESH' : 'MISS';
}

export interface CacheResult {
  answer: CachedAnswer;
  status: CacheStatus;
  /**
   * Until when something built from this answer (a rendered page) may be reused: the end of
   * its freshness; for a stale answer a short while, within the window it may be served in.
   */
  reuseUntil: number;
}

/**
 * Asked by a load just before it calls the content API, on behalf of the request that caused it
 * (its client's budget, shedding); throws the refusal (a ContentError) to stop the call.
 */
export type Admit = () => Promise<void>;

/** What a call to the content API needs. */
interface FetchDeps {
  upstream: UpstreamClient;
  reader: ContentReader;
  metrics: Metrics;
  log: Logger;
  config: CacheWindows;
}

/** The settings of the cache's windows. */
export type CacheWindows = Pick<
  Config,
  'CACHE_MAX_AGE_MS' | 'CACHE_STALE_WHILE_REVALIDATE_S' | 'CACHE_STALE_IF_ERROR_S' | 'CACHE_NOT_FOUND_TTL_S'
>;

/** Freshness is shortened by up to this share, at random, when an answer is fetched. */
const FRESHNESS_JITTER = 0.1;

/** Milliseconds an answer fetched now stays fresh: its path's freshness, shortened at random. */
function freshFor(request: ApiRequest, status: 200 | 404, windows: CacheWindows): number {
  if (status === 404) return windows.CACHE_NOT_FOUND_TTL_S * 1000;
  const maxAgeMs = windows.CACHE_MAX_AGE_MS ?? API_PATHS[request.name].maxAge * 1000;
  return Math.round(maxAgeMs * (1 - FRESHNESS_JITTER * Math.random()));
}

/** An answer with its headers, fresh for `freshMs` from now. */
function makeAnswer(
  request: ApiRequest,
  status: 200 | 404,
  data: unknown,
  body: Representation,
  freshMs: number,
  upstreamMs: number,
  validators: Validators,
  windows: CacheWindows,
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
      cacheControl(status, Math.floor(freshMs / 1000), windows),
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

/** What the content API sent, read as the service answers it (content-reader.ts); an UpstreamError when nothing of it is usable. */
async function answerFromUpstream(
  request: ApiRequest,
  status: number,
  raw: Buffer,
  upstreamMs: number,
  validators: Validators,
  { reader, config: windows }: Pick<FetchDeps, 'reader' | 'config'>,
): Promise<CachedAnswer> {
  if (status === 404) {
    const body = Buffer.from(JSON.stringify({ error: { code: 'not_found', message: `${request.key} does not exist` } }));
    return makeAnswer(request, 404, null, new Representation(body), freshFor(request, 404, windows), upstreamMs, {}, windows);
  }
  if (status !== 200) throw upstreamError('status', `the content API answered ${status}`);
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    throw upstreamError('invalid', 'the content API answered with malformed JSON');
  }
  const data = await reader.read(request, json);
  const body = new Representation(Buffer.from(JSON.stringify({ data })));
  return makeAnswer(request, 200, data, body, freshFor(request, 200, windows), upstreamMs, validators, windows);
}

/**
 * An answer as another process stored it; its body and payload are reused from `previous` when
 * they have not changed. One marked purged is stale here by this process's clock, whatever the
 * freshness another machine's clock gave it.
 */
export function answerFromShared(
  request: ApiRequest,
  found: SharedAnswer,
  previous: CachedAnswer | undefined,
  windows: CacheWindows,
): CachedAnswer {
  const bytes = Buffer.from(found.json);
  const same = previous?.body.body.equals(bytes);
  const body = same ? previous!.body : new Representation(bytes);
  const data = same ? previous!.data : found.status === 200 ? (JSON.parse(found.json) as { data: unknown }).data : null;
  const validators = { etag: found.etag, lastModified: found.lastModified };
  const answer = makeAnswer(request, found.status, data, body, found.freshUntil - found.storedAt, 0, validators, windows);
  answer.storedAt = found.storedAt;
  answer.freshUntil = found.freshUntil;
  return found.purged ? asPurged(answer, Math.min(found.freshUntil, purgedFreshUntil(windows)), windows) : answer;
}

/** What the processes share of an answer. */
export function toShared(answer: CachedAnswer): SharedAnswer {
  return {
    status: answer.status,
    json: answer.body.body.toString('utf8'),
    storedAt: answer.storedAt,
    freshUntil: answer.freshUntil,
    etag: answer.validators.etag,
    lastModified: answer.validators.lastModified,
    purged: answer.purged,
  };
}

/** The freshness a purged answer is given: past the stale-while-revalidate window, within stale-if-error. */
export function purgedFreshUntil(windows: Pick<CacheWindows, 'CACHE_STALE_WHILE_REVALIDATE_S'>): number {
  return Date.now() - windows.CACHE_STALE_WHILE_REVALIDATE_S * 1000 - 1;
}

/** A purged copy of an answer: stale here from `freshUntil` (in the past), and for an edge (s-maxage=0). */
export function asPurged(answer: CachedAnswer, freshUntil: number, windows: CacheWindows): CachedAnswer {
  const headers = [...answer.headers];
  headers[headers.indexOf('cache-control') + 1] = cacheControl(answer.status, 0, windows);
  return { ...answer, headers, freshUntil, purged: true };
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

/** One call to the content API, made into an answer; an unchanged answer (304) renews `previous`. */
export async function fetchAnswer(request: ApiRequest, previous: CachedAnswer | undefined, deps: FetchDeps): Promise<CachedAnswer> {
  const { upstream, metrics, log, config } = deps;
  const path = API_PATHS[request.name].template;
  const started = performance.now();
  try {
    // A purged answer is asked for whole and read anew: what it names may have changed behind an
    // unchanged answer (an image's bytes under the same address), and the reader learns it.
    const res = await upstream.get(request.key, previous?.purged ? undefined : previous?.validators);
    const upstreamMs = performance.now() - started;
    metrics.upstreamDuration(path).observe(upstreamMs / 1000);
    if (res.status === 304 && previous) {
      metrics.cacheEvents(path, 'not_modified').inc();
      const freshMs = freshFor(request, previous.status, config);
      return makeAnswer(request, previous.status, previous.data, previous.body, freshMs, upstreamMs, previous.validators, config);
    }
    return await answerFromUpstream(request, res.status, res.body, upstreamMs, res.validators, deps);
  } catch (error) {
    // No slot for the call (concurrency-gate.ts): not the content API's failure, counted where it is refused.
    if (isContentError(error) && error.code === 'busy') throw error;
    const failure = error instanceof UpstreamError ? error : upstreamError('invalid', String(error));
    metrics.upstreamErrors(path, failure.kind).inc();
    // While the circuit is open every miss fails here; the breaker logs its own changes.
    if (failure.kind !== 'circuit_open') log.warn({ key: request.key, kind: failure.kind, err: failure.message }, 'upstream call failed');
    throw failure;
  }
}
