/**
 * The shared tier of one machine without Redis (shared-tier.ts; decision 022): held in the
 * primary process's memory and reached by the workers over IPC (primary-link.ts), so that the
 * workers of one service tell the same truth: one upstream call per key among them, any worker
 * serves what another fetched, and a purge marks it stale for all. The same rules as the Redis
 * tier (redis-tier.ts), which test/shared-tier.test.ts checks against both; bounded in bytes.
 * Waiting is by notification, not by polling: a worker waiting for a key is answered when its
 * holder stores the answer or lets go of the lock.
 */
import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { freshAt, PURGE_MEMORY_MS, type LookOrLock, type SharedAnswer, type SharedTier } from './shared-tier.js';
import { WALL_CLOCK } from '../reliability/wall-clock.js';

interface Held {
  answer: SharedAnswer;
  tags: readonly string[];
}

interface Waiter {
  after: number;
  done: (answer: SharedAnswer | undefined) => void;
}

export class MemoryTier implements SharedTier {
  readonly available = true;
  readonly #answers: LRUCache<string, Held>;
  /** Tag → keys of the answers carrying it (an entry may outlive its answer; markStale drops it then). */
  readonly #byTag = new Map<string, Set<string>>();
  /** The purge generation (shared-tier.ts): raised by every purge. */
  #generation = 0;
  /** Tag → the generation of its last purge, kept for PURGE_MEMORY_MS. */
  readonly #purgedIn = new LRUCache<string, number>({ max: 100_000, ttl: PURGE_MEMORY_MS });
  readonly #locks = new LRUCache<string, string>({ max: 100_000, ttl: 1, ttlAutopurge: true, dispose: (_t, key) => this.#wake(key) });
  readonly #claims = new LRUCache<string, true>({ max: 100_000, ttl: 1 });
  readonly #waiting = new Map<string, Set<Waiter>>();

  constructor(
    maxBytes: number,
    /** How long after its freshness an answer is kept: the longest stale window. */
    private readonly keepAfterFreshMs: number,
  ) {
    this.#answers = new LRUCache<string, Held>({
      maxSize: maxBytes,
      sizeCalculation: (held, key) => key.length + held.answer.json.length + 256,
      ttl: 1,
      perf: WALL_CLOCK,
    });
  }

  generation(): Promise<number> {
    return Promise.resolve(this.#generation);
  }

  put(key: string, answer: SharedAnswer, tags: readonly string[], generation: number, purgedFreshUntil: number): Promise<number> {
    const purgedSince = tags.some((tag) => (this.#purgedIn.get(tag) ?? -Infinity) > generation);
    const stored: SharedAnswer = purgedSince ? { ...answer, freshUntil: purgedFreshUntil, purged: true } : answer;
    const keepMs = Math.max(1, stored.freshUntil - Date.now() + this.keepAfterFreshMs);
    this.#answers.set(key, { answer: stored, tags }, { ttl: keepMs });
    if (stored.status === 200) {
      for (const tag of tags) {
        let keys = this.#byTag.get(tag);
        if (!keys) this.#byTag.set(tag, (keys = new Set()));
        keys.add(key);
      }
    }
    for (const waiter of this.#waiting.get(key) ?? []) {
      if (stored.storedAt > waiter.after) waiter.done(stored);
    }
    return Promise.resolve(stored.freshUntil);
  }

  markStale(tags: readonly string[], before: number): Promise<number> {
    let marked = 0;
    const generation = ++this.#generation;
    for (const tag of tags) {
      this.#purgedIn.set(tag, generation);
      for (const key of this.#byTag.get(tag) ?? []) {
        const held = this.#answers.get(key);
        if (!held) {
          this.#byTag.get(tag)!.delete(key);
        } else if (held.answer.freshUntil > before) {
          held.answer = { ...held.answer, freshUntil: before, purged: true };
          marked++;
        }
      }
      if (this.#byTag.get(tag)?.size === 0) this.#byTag.delete(tag);
    }
    return Promise.resolve(marked);
  }

  lookOrLock(key: string, ttlMs: number, now: number): Promise<LookOrLock> {
    const answer = this.#answers.get(key)?.answer;
    if (answer && freshAt(answer, now)) return Promise.resolve({ answer });
    if (this.#locks.has(key)) return Promise.resolve({ answer, token: null });
    const token = randomUUID();
    this.#locks.set(key, token, { ttl: ttlMs });
    return Promise.resolve({ answer, token });
  }

  unlock(key: string, token: string): Promise<void> {
    // Only the holder's own token lets go: a lock that expired and was taken by another stays.
    if (this.#locks.get(key) === token) this.#locks.delete(key);
    return Promise.resolve();
  }

  waitFor(key: string, after: number, deadline: number): Promise<SharedAnswer | undefined> {
    const found = this.#answers.get(key)?.answer;
    if (found && found.storedAt > after) return Promise.resolve(found);
    if (!this.#locks.has(key) || Date.now() >= deadline) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const waiters = this.#waiting.get(key) ?? new Set<Waiter>();
      this.#waiting.set(key, waiters);
      const waiter: Waiter = {
        after,
        done: (answer) => {
          clearTimeout(timer);
          waiters.delete(waiter);
          if (waiters.size === 0 && this.#waiting.get(key) === waiters) this.#waiting.delete(key);
          resolve(answer);
        },
      };
      const timer = setTimeout(() => waiter.done(undefined), deadline - Date.now());
      waiters.add(waiter);
    });
  }

  claimOnce(name: string, ttlMs: number): Promise<boolean> {
    if (this.#claims.has(name)) return Promise.resolve(false);
    this.#claims.set(name, true, { ttl: ttlMs });
    return Promise.resolve(true);
  }

  /** The lock of a key was let go or expired: whoever still waits fetches for itself. */
  #wake(key: string): void {
    for (const waiter of this.#waiting.get(key) ?? []) waiter.done(undefined);
  }

  /** Answers held: something to serve. */
  get size(): number {
    return this.#answers.size;
  }
}
