/**
 * The tier below each process's own cache that every process of the service shares (decisions
 * 016 and 022): Redis when the service is a fleet (redis-tier.ts), else, when one machine runs
 * several workers, a tier held by their primary process and reached over IPC (memory-tier.ts,
 * primary-link.ts). An answer fetched, validated and sanitised by one process is stored here
 * with its freshness, so that every process serves it, fresh or stale, within the same windows;
 * a short lock per key makes concurrent misses one call to the content API; tags index answers
 * so that a purge marks them stale for all. A method that cannot say (Redis away, the primary
 * slow to answer) answers undefined, and the caller goes on alone.
 */

/** An answer as the processes share it. */
export interface SharedAnswer {
  status: 200 | 404;
  /** The body as the service sends it: validated and sanitised. */
  json: string;
  /** When it was fetched from the content API (epoch ms). */
  storedAt: number;
  /** Until when it is fresh (epoch ms); a purge moves it into the past. */
  freshUntil: number;
  /** The content API's validators, for a conditional refresh. */
  etag?: string | undefined;
  lastModified?: string | undefined;
  /**
   * Marked stale by a purge, or fetched before one: stale for every process by its own clock,
   * whatever `freshUntil` says on another machine's.
   */
  purged?: true | undefined;
}

/** What `lookOrLock` found and took. */
export interface LookOrLock {
  /** The answer stored for the key, fresh or not. */
  answer?: SharedAnswer | undefined;
  /**
   * The lock: a token when this process is to call the content API, null when another holds it;
   * undefined when the answer is fresh (no lock is taken).
   */
  token?: string | null | undefined;
}

/** Fresh by the reader's clock: within its freshness and not marked stale by a purge. */
export const freshAt = (answer: SharedAnswer, now: number): boolean => answer.freshUntil > now && !answer.purged;

/** How long a tag's purge is remembered: longer than any fetch takes. */
export const PURGE_MEMORY_MS = 120_000;

export interface SharedTier {
  /** Worth asking now (Redis connected, the primary reachable). */
  readonly available: boolean;
  /**
   * The purge generation (docs/decisions/033): a count every purge raises, in the tier itself,
   * so that purges and fetches on any machine are ordered without their clocks. Read when a fetch
   * begins; undefined when the tier cannot say.
   */
  generation(): Promise<number | undefined>;
  /**
   * Stores an answer for all, indexed under its tags (a 404 is short-lived and not indexed).
   * `generation` is the one read when its fetch began: if one of its tags was purged since, it is
   * stored stale (freshness `purgedFreshUntil`, and marked purged), since it may be what the purge
   * was for. Returns the freshness it was stored with; undefined when it could not be stored.
   */
  put(
    key: string,
    answer: SharedAnswer,
    tags: readonly string[],
    generation: number,
    purgedFreshUntil: number,
  ): Promise<number | undefined>;
  /** Raises the generation and marks stale every answer carrying one of the tags (freshness `before`); how many, or undefined. */
  markStale(tags: readonly string[], before: number): Promise<number | undefined>;
  /**
   * Looks a key up and, unless its answer is fresh, takes the key's fetch lock, in one step: no
   * answer can be stored between the look and the lock (a holder stores before it lets go), so a
   * process never calls the content API for an answer another has just stored. Undefined when
   * the tier cannot say (then every process fetches alone).
   */
  lookOrLock(key: string, ttlMs: number, now: number): Promise<LookOrLock | undefined>;
  unlock(key: string, token: string): Promise<void>;
  /**
   * Waits while another process fetches a key: the answer it stores (one fetched after `after`),
   * or undefined when the lock is let go or expires without one, or the time is up.
   */
  waitFor(key: string, after: number, deadline: number): Promise<SharedAnswer | undefined>;
  /** Claims a name for all, for a while: true the first time, false when claimed already, undefined when unknown. */
  claimOnce(name: string, ttlMs: number): Promise<boolean | undefined>;
}
