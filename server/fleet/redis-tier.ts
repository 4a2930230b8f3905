/**
 * The fleet's shared tier in Redis (shared-tier.ts; decision 016). A short lock with a token
 * makes concurrent misses of one key, on any process, one upstream call: the others poll for the
 * shared answer. An answer's tags index it, so that a purge marks it stale for the whole fleet
 * (decision 018). Every operation goes through RedisLink: when Redis is away it answers
 * undefined and the caller goes on alone.
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../reliability/redis-link.js';
import { PURGE_MEMORY_MS, type LookOrLock, type SharedAnswer, type SharedTier } from './shared-tier.js';

/*
 * Every key a script touches is named in its KEYS (Redis Cluster routes a call by them and
 * refuses a script that reaches past them), and every key of the tier carries one hash tag, the
 * namespace in braces (`{site}:c:/api/news`), so that all of one call's keys are in one slot.
 * `#!lua` makes Redis 7 refuse, in a cluster, a script whose keys are in different slots.
 */

/** Deletes the lock only if it still holds this token: a lock that expired and was taken by another is left alone. */
const RELEASE = `#!lua
if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

/**
 * The first half of a purge: raises the purge generation (KEYS[1]) and records it as each tag's
 * last purge (KEYS[2..n+1], kept ARGV[1] ms), so that an answer whose fetch began before the purge
 * and stored after it is stored stale (PUT), and returns the keys indexed under the tags
 * (KEYS[n+2..2n+1]), each once. Their answers can only be named in a second call
 * (MARK_ENTRIES): a script may touch no key it was not given. A count in Redis orders the purge
 * and every fetch of the fleet, whatever each machine's clock says (docs/decisions/033).
 */
const MARK_PURGED = `#!lua
local n = (#KEYS - 1) / 2
local generation = redis.call("incr", KEYS[1])
local seen, members = {}, {}
for i = 2, n + 1 do
  redis.call("set", KEYS[i], generation, "PX", ARGV[1])
  for _, member in ipairs(redis.call("smembers", KEYS[n + i])) do
    if not seen[member] then
      seen[member] = true
      members[#members + 1] = member
    end
  end
end
return members`;

/**
 * The second half: marks stale each answer (KEYS[n+1..], n = ARGV[1] tag sets first): its
 * freshness ends at ARGV[2] unless it ended earlier, and it is marked purged, which every reader
 * takes as stale by its own clock. A key whose answer has expired (its name in ARGV[3..], in the
 * order of the answers' keys) is dropped from the tag sets. Returns how many answers it marked.
 */
const MARK_ENTRIES = `#!lua
local n, before = tonumber(ARGV[1]), tonumber(ARGV[2])
local marked = 0
for i = n + 1, #KEYS do
  local fresh = redis.call("hget", KEYS[i], "freshUntil")
  if not fresh then
    for t = 1, n do redis.call("srem", KEYS[t], ARGV[i - n + 2]) end
  elseif tonumber(fresh) > before then
    redis.call("hset", KEYS[i], "freshUntil", ARGV[2], "purged", "1")
    marked = marked + 1
  end
end
return marked`;

/**
 * Stores an answer (KEYS[1]) and indexes it under its tags: n tags' last purges in
 * KEYS[2..n+1], their sets in KEYS[n+2..2n+1]. An answer whose fetch began at generation
 * ARGV[2], before one of its tags was last purged, is stored stale (freshUntil ARGV[3]) and
 * marked purged (as is one its process marked so, ARGV[11]). Returns the freshness it was
 * stored with.
 */
const PUT = `#!lua
local n = (#KEYS - 1) / 2
local keepMs, started = ARGV[1], tonumber(ARGV[2])
local freshUntil, purged = ARGV[8], ARGV[11]
for i = 2, n + 1 do
  local last = redis.call("get", KEYS[i])
  if last and tonumber(last) > started then
    freshUntil, purged = ARGV[3], "1"
    break
  end
end
redis.call("del", KEYS[1])
redis.call("hset", KEYS[1], "status", ARGV[4], "json", ARGV[5], "storedAt", ARGV[6], "etag", ARGV[7], "freshUntil", freshUntil, "lastModified", ARGV[9], "purged", purged)
redis.call("pexpire", KEYS[1], keepMs)
if ARGV[4] == "200" then
  for i = n + 2, 2 * n + 1 do
    redis.call("sadd", KEYS[i], ARGV[10])
    redis.call("pexpire", KEYS[i], keepMs)
  end
end
return freshUntil`;

/**
 * Reads an answer (KEYS[1]) and, unless it is fresh at ARGV[1] (the reader's clock) and not
 * purged, takes the fetch lock (KEYS[2]) with token ARGV[2] for ARGV[3] ms. Returns the lock's
 * outcome (2: fresh, none taken; 1: taken; 0: held by another) and the answer's fields.
 */
const LOOK_OR_LOCK = `#!lua
local fields = redis.call("hgetall", KEYS[1])
local entry = {}
for i = 1, #fields, 2 do entry[fields[i]] = fields[i + 1] end
if entry.freshUntil and tonumber(entry.freshUntil) > tonumber(ARGV[1]) and entry.purged ~= "1" then return {2, fields} end
if redis.call("set", KEYS[2], ARGV[2], "NX", "PX", ARGV[3]) then return {1, fields} end
return {0, fields}`;

/** The commands the tier sends, which one Redis and a Redis Cluster client both have. */
type TierCommands = Pick<RedisClient, 'eval' | 'exists' | 'get' | 'hGetAll' | 'set'>;

/** How the tier reaches Redis: RedisLink (a budget per call, undefined when Redis cannot answer). */
export interface TierLink {
  readonly available: boolean;
  call<T>(op: string, run: (client: TierCommands) => Promise<T>): Promise<T | undefined>;
}

/** An answer as its hash's fields hold it; undefined when there is none. */
function fromFields(fields: Record<string, string>): SharedAnswer | undefined {
  if (!fields.json || !fields.status) return undefined;
  return {
    status: fields.status === '404' ? 404 : 200,
    json: fields.json,
    storedAt: Number(fields.storedAt),
    freshUntil: Number(fields.freshUntil),
    etag: fields.etag || undefined,
    lastModified: fields.lastModified || undefined,
    purged: fields.purged === '1' || undefined,
  };
}

/** How often a process waiting on another's fetch looks for its answer. */
const POLL_MS = 15;

export class RedisTier implements SharedTier {
  /** Every key's start: the namespace as a hash tag, so that all the tier's keys share a slot. */
  readonly #prefix: string;

  constructor(
    private readonly link: TierLink,
    /** How long after its freshness an answer is kept: the longest stale window. */
    private readonly keepAfterFreshMs: number,
    namespace = 'site',
  ) {
    this.#prefix = `{${namespace}}:`;
  }

  /** An answer's key. */
  #entry = (key: string) => `${this.#prefix}c:${key}`;
  /** The set of answer keys indexed under a tag. */
  #tagSet = (tag: string) => `${this.#prefix}t:${tag}`;
  /** The generation of a tag's last purge (`g:`: the `p:` keys of earlier versions held times). */
  #purgedIn = (tag: string) => `${this.#prefix}g:${tag}`;
  /** The purge generation. */
  #generationKey = () => `${this.#prefix}generation`;
  #lockKey = (key: string) => `${this.#prefix}l:${key}`;

  get available(): boolean {
    return this.link.available;
  }

  async lookOrLock(key: string, ttlMs: number, now: number): Promise<LookOrLock | undefined> {
    const token = randomUUID();
    const reply = await this.link.call('lock', (c) =>
      c.eval(LOOK_OR_LOCK, { keys: [this.#entry(key), this.#lockKey(key)], arguments: [String(now), token, String(ttlMs)] }),
    );
    if (!Array.isArray(reply)) return undefined;
    const [taken, flat] = reply as [number, string[]];
    const fields: Record<string, string> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) fields[flat[i]!] = flat[i + 1]!;
    const answer = fromFields(fields);
    return taken === 2 ? { answer } : { answer, token: taken === 1 ? token : null };
  }

  async generation(): Promise<number | undefined> {
    const found = await this.link.call('generation', (c) => c.get(this.#generationKey()));
    return found === undefined ? undefined : Number(found ?? 0);
  }

  async put(
    key: string,
    answer: SharedAnswer,
    tags: readonly string[],
    generation: number,
    purgedFreshUntil: number,
  ): Promise<number | undefined> {
    const keepMs = Math.max(1, answer.freshUntil - Date.now() + this.keepAfterFreshMs);
    const stored = await this.link.call('set', (c) =>
      c.eval(PUT, {
        keys: [this.#entry(key), ...tags.map(this.#purgedIn), ...tags.map(this.#tagSet)],
        arguments: [
          String(keepMs),
          String(generation),
          String(purgedFreshUntil),
          String(answer.status),
          answer.json,
          String(answer.storedAt),
          answer.etag ?? '',
          String(answer.freshUntil),
          answer.lastModified ?? '',
          key,
          answer.purged ? '1' : '',
        ],
      }),
    );
    return stored === undefined ? undefined : Number(stored);
  }

  async markStale(tags: readonly string[], before: number): Promise<number | undefined> {
    if (tags.length === 0) return 0;
    const tagSets = tags.map(this.#tagSet);
    // The purge's generation first: an answer stored from now on sees it (PUT); one stored before is in the sets read here.
    const members = await this.link.call('purge', (c) =>
      c.eval(MARK_PURGED, {
        keys: [this.#generationKey(), ...tags.map(this.#purgedIn), ...tagSets],
        arguments: [String(PURGE_MEMORY_MS)],
      }),
    );
    if (!Array.isArray(members)) return undefined;
    if (members.length === 0) return 0;
    const keys = members.map(String);
    const marked = await this.link.call('purge', (c) =>
      c.eval(MARK_ENTRIES, { keys: [...tagSets, ...keys.map(this.#entry)], arguments: [String(tags.length), String(before), ...keys] }),
    );
    return typeof marked === 'number' ? marked : undefined;
  }

  async claimOnce(name: string, ttlMs: number): Promise<boolean | undefined> {
    const taken = await this.link.call('claim', (c) => c.set(`${this.#prefix}once:${name}`, '1', { NX: true, PX: ttlMs }));
    return taken === undefined ? undefined : taken === 'OK';
  }

  async unlock(key: string, token: string): Promise<void> {
    await this.link.call('unlock', (c) => c.eval(RELEASE, { keys: [this.#lockKey(key)], arguments: [token] }));
  }

  async waitFor(key: string, after: number, deadline: number): Promise<SharedAnswer | undefined> {
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      // The lock first: its holder stores the answer before it lets go, so an answer stored by
      // a holder that has let go is found by the read that follows.
      const locked = await this.link.call('locked', (c) => c.exists(this.#lockKey(key)));
      const fields = await this.link.call('get', (c) => c.hGetAll(this.#entry(key)));
      const answer = fields && fromFields(fields);
      if (answer && answer.storedAt > after) return answer;
      if (!locked) return undefined;
    }
    return undefined;
  }
}
