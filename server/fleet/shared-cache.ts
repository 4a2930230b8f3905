/**
 * The fleet's shared tier of the proxy cache, in Redis, below each process's own (decision 016).
 * An answer fetched, validated and sanitised by one process is stored here with its freshness,
 * so that every process can serve it, fresh or stale, within the same windows. A short lock with
 * a token makes concurrent misses of one key, on any process, one upstream call: the others
 * wait for the shared answer. Every operation goes through RedisLink: when Redis is away it
 * answers undefined and the caller goes on alone.
 */
import { randomUUID } from 'node:crypto';
import type { RedisLink } from './redis-link.js';

/** An answer as the fleet shares it. */
export interface SharedAnswer {
  status: 200 | 404;
  /** The body as the service sends it: validated and sanitised. */
  json: string;
  /** When it was fetched from the content API (epoch ms). */
  storedAt: number;
  /** Until when it is fresh (epoch ms). */
  freshUntil: number;
  /** The content API's validators, for a conditional refresh. */
  etag?: string | undefined;
  lastModified?: string | undefined;
}

/** Deletes the lock only if it still holds this token: a lock that expired and was taken by another is left alone. */
const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;
/** How often a process waiting on another's fetch looks for its answer. */
const POLL_MS = 15;

export class SharedCache {
  constructor(
    private readonly link: RedisLink,
    /** How long after its freshness an answer is kept: the longest stale window. */
    private readonly keepAfterFreshMs: number,
    private readonly prefix = 'site:',
  ) {}

  get available(): boolean {
    return this.link.available;
  }

  async get(key: string): Promise<SharedAnswer | undefined> {
    const raw = await this.link.call('get', (c) => c.get(this.prefix + 'c:' + key));
    if (typeof raw !== 'string') return undefined;
    try {
      return JSON.parse(raw) as SharedAnswer;
    } catch {
      return undefined;
    }
  }

  async put(key: string, answer: SharedAnswer): Promise<void> {
    const keepMs = Math.max(1, answer.freshUntil - Date.now() + this.keepAfterFreshMs);
    await this.link.call('set', (c) => c.set(this.prefix + 'c:' + key, JSON.stringify(answer), { PX: keepMs }));
  }

  /**
   * Takes the fetch lock of a key: its token when this process is to call the content API, null
   * when another holds it, undefined when Redis cannot say (then every process fetches for itself).
   */
  async lock(key: string, ttlMs: number): Promise<string | null | undefined> {
    const token = randomUUID();
    const taken = await this.link.call('lock', (c) => c.set(this.prefix + 'l:' + key, token, { NX: true, PX: ttlMs }));
    if (taken === undefined) return undefined;
    return taken === 'OK' ? token : null;
  }

  async unlock(key: string, token: string): Promise<void> {
    await this.link.call('unlock', (c) => c.eval(RELEASE, { keys: [this.prefix + 'l:' + key], arguments: [token] }));
  }

  /**
   * Waits while another process fetches a key: the answer it stores (one fetched after
   * `after`), or undefined when the lock is let go or expires without one, or the time is up.
   */
  async waitFor(key: string, after: number, deadline: number, signal?: AbortSignal): Promise<SharedAnswer | undefined> {
    while (Date.now() < deadline && !signal?.aborted) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      // The lock first: its holder stores the answer before it lets go, so an answer stored by
      // a holder that has let go is found by the read that follows.
      const locked = await this.link.call('locked', (c) => c.exists(this.prefix + 'l:' + key));
      const answer = await this.get(key);
      if (answer && answer.storedAt > after) return answer;
      if (!locked) return undefined;
    }
    return undefined;
  }
}
