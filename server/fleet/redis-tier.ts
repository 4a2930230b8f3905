/**
 * The fleet's shared tier in Redis (shared-tier.ts; decision 016). A short lock with a token
 * makes concurrent misses of one key, on any process, one upstream call: the others poll for the
 * shared answer. An answer's tags index it, so that a purge marks it stale for the whole fleet
 * (decision 018). Every operation goes through RedisLink: when Redis is away it answers
 * undefined and the caller goes on alone.
 */
import { randomUUID } from 'node:crypto';
import type { RedisLink } from './redis-link.js';
import { PURGE_MEMORY_MS, type SharedAnswer, type SharedTier } from './shared-tier.js';

/** Deletes the lock only if it still holds this token: a lock that expired and was taken by another is left alone. */
const RELEASE = `if redis.call("get", KEYS[1]) == ARGV[1] then return redis.call("del", KEYS[1]) else return 0 end`;

/**
 * Marks stale every answer indexed under the given tag sets: its freshness ends at ARGV[2]
 * unless it ended earlier; members whose answer has expired are dropped from the set. Each tag's
 * purge time (ARGV[3]) is kept a while, so that an answer fetched before the purge and stored
 * after it is stored stale (PUT). Returns how many answers it marked.
 */
const MARK_STALE = `
local marked = 0
for _, tagKey in ipairs(KEYS) do
  redis.call("set", ARGV[1] .. "p:" .. string.sub(tagKey, string.len(ARGV[1]) + 3), ARGV[3], "PX", ARGV[4])
  for _, key in ipairs(redis.call("smembers", tagKey)) do
    local entry = ARGV[1] .. "c:" .. key
    local fresh = redis.call("hget", entry, "freshUntil")
    if not fresh then
      redis.call("srem", tagKey, key)
    elseif tonumber(fresh) > tonumber(ARGV[2]) then
      redis.call("hset", entry, "freshUntil", ARGV[2])
      marked = marked + 1
    end
  end
end
return marked`;

/**
 * Stores an answer (KEYS[1]) and indexes it under its tags; an answer whose fetch began before
 * one of its tags was last purged (ARGV[3]) is stored stale (freshUntil ARGV[4]). Returns the
 * freshness it was stored with.
 */
const PUT = `
local prefix, keepMs, started = ARGV[1], ARGV[2], tonumber(ARGV[3])
local freshUntil = ARGV[9]
local tags = cjson.decode(ARGV[12])
for _, tag in ipairs(tags) do
  local purged = redis.call("get", prefix .. "p:" .. tag)
  if purged and tonumber(purged) >= started then
    freshUntil = ARGV[4]
    break
  end
end
redis.call("del", KEYS[1])
redis.call("hset", KEYS[1], "status", ARGV[5], "json", ARGV[6], "storedAt", ARGV[7], "etag", ARGV[8], "freshUntil", freshUntil, "lastModified", ARGV[10])
redis.call("pexpire", KEYS[1], keepMs)
if ARGV[5] == "200" then
  for _, tag in ipairs(tags) do
    redis.call("sadd", prefix .. "t:" .. tag, ARGV[11])
    redis.call("pexpire", prefix .. "t:" .. tag, keepMs)
  end
end
return freshUntil`;

/** How often a process waiting on another's fetch looks for its answer. */
const POLL_MS = 15;

export class RedisTier implements SharedTier {
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
    const fields = await this.link.call('get', (c) => c.hGetAll(this.prefix + 'c:' + key));
    if (!fields?.json || !fields.status) return undefined;
    return {
      status: fields.status === '404' ? 404 : 200,
      json: fields.json,
      storedAt: Number(fields.storedAt),
      freshUntil: Number(fields.freshUntil),
      etag: fields.etag || undefined,
      lastModified: fields.lastModified || undefined,
    };
  }

  async put(
    key: string,
    answer: SharedAnswer,
    tags: readonly string[],
    fetchedSince: number,
    purgedFreshUntil: number,
  ): Promise<number | undefined> {
    const keepMs = Math.max(1, answer.freshUntil - Date.now() + this.keepAfterFreshMs);
    const stored = await this.link.call('set', (c) =>
      c.eval(PUT, {
        keys: [this.prefix + 'c:' + key],
        arguments: [
          this.prefix,
          String(keepMs),
          String(fetchedSince),
          String(purgedFreshUntil),
          String(answer.status),
          answer.json,
          String(answer.storedAt),
          answer.etag ?? '',
          String(answer.freshUntil),
          answer.lastModified ?? '',
          key,
          JSON.stringify(tags),
        ],
      }),
    );
    return stored === undefined ? undefined : Number(stored);
  }

  async markStale(tags: readonly string[], before: number): Promise<number | undefined> {
    const keys = tags.map((t) => this.prefix + 't:' + t);
    const marked = await this.link.call('purge', (c) =>
      c.eval(MARK_STALE, { keys, arguments: [this.prefix, String(before), String(Date.now()), String(PURGE_MEMORY_MS)] }),
    );
    return typeof marked === 'number' ? marked : undefined;
  }

  async lock(key: string, ttlMs: number): Promise<string | null | undefined> {
    const token = randomUUID();
    const taken = await this.link.call('lock', (c) => c.set(this.prefix + 'l:' + key, token, { NX: true, PX: ttlMs }));
    if (taken === undefined) return undefined;
    return taken === 'OK' ? token : null;
  }

  async claimOnce(name: string, ttlMs: number): Promise<boolean | undefined> {
    const taken = await this.link.call('claim', (c) => c.set(this.prefix + 'once:' + name, '1', { NX: true, PX: ttlMs }));
    return taken === undefined ? undefined : taken === 'OK';
  }

  async unlock(key: string, token: string): Promise<void> {
    await this.link.call('unlock', (c) => c.eval(RELEASE, { keys: [this.prefix + 'l:' + key], arguments: [token] }));
  }

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
