/**
 * The memory budget (server/settings/memory-budget.ts): one limit, from MEMORY_LIMIT_BYTES or the
 * cgroup's, shared by the service's processes, each part taking its share or its own setting; and
 * shedding near it (server/reliability/memory-pressure.ts) on real lru-caches.
 */
import { availableParallelism } from 'node:os';
import { LRUCache } from 'lru-cache';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError, loadConfig } from '../server/settings/config.js';
import { memoryBudget } from '../server/settings/memory-budget.js';
import { MemoryPressure, shrinkLru, type ShrinkablePart } from '../server/reliability/memory-pressure.js';
import { isContentError } from '../shared/content-api.js';

const MIB = 1024 * 1024;
const budget = (env: Record<string, string>, processes = 1, cgroup?: number) => memoryBudget(loadConfig(env), processes, cgroup);

describe('memoryBudget', () => {
  it('with no limit known: shares of 512 MiB a process, nothing enforced', () => {
    expect(budget({})).toEqual({
      limit: 512 * MIB,
      source: 'none',
      slice: 512 * MIB,
      enforced: false,
      shares: { content: 32 * MIB, pages: 32 * MIB, media: 64 * MIB, 'share-cards': 16 * MIB, search: 8 * MIB },
      image: { transforms: Math.min(availableParallelism(), 2), threads: 1 },
    });
    // Each worker gets its own shares of 512 MiB when nothing limits the machine.
    expect(budget({}, 3).slice).toBe(512 * MIB);
  });

  it("takes the cgroup's limit when MEMORY_LIMIT_BYTES is unset, and the setting before it", () => {
    expect(budget({}, 1, 1024 * MIB)).toMatchObject({ limit: 1024 * MIB, source: 'cgroup', enforced: true });
    expect(budget({}, 1, 1024 * MIB).shares.content).toBe(64 * MIB);
    expect(budget({ MEMORY_LIMIT_BYTES: String(256 * MIB) }, 1, 1024 * MIB)).toMatchObject({
      limit: 256 * MIB,
      source: 'MEMORY_LIMIT_BYTES',
      shares: { content: 16 * MIB, pages: 16 * MIB, media: 32 * MIB, 'share-cards': 8 * MIB, search: 4 * MIB },
      image: { transforms: 1 },
    });
  });

  it("shares the machine's limit among the workers and their primary", () => {
    const shared = budget({ MEMORY_LIMIT_BYTES: String(1536 * MIB) }, 3);
    expect(shared.slice).toBe(512 * MIB);
    expect(shared.shares.pages).toBe(32 * MIB);
  });

  it("takes a part's own setting as its share, and PAGE_CACHE_MAX_BYTES=0 as none", () => {
    const set = budget({ CACHE_MAX_BYTES: String(100 * MIB), PAGE_CACHE_MAX_BYTES: '0', MEDIA_TRANSFORMS: '3' });
    expect(set.shares).toMatchObject({ content: 100 * MIB, pages: 0, media: 64 * MIB });
    expect(set.image.transforms).toBe(3);
  });

  it('refuses settings that leave the heap and libvips less than half of a real limit, naming them; with no limit known they stand', () => {
    const env = { CACHE_MAX_BYTES: String(200 * MIB), MEDIA_CACHE_MAX_BYTES: String(100 * MIB) };
    expect(() => budget({ ...env, MEMORY_LIMIT_BYTES: String(512 * MIB) })).toThrow(ConfigError);
    expect(() => budget({ ...env, MEMORY_LIMIT_BYTES: String(512 * MIB) })).toThrow(
      /CACHE_MAX_BYTES, MEDIA_CACHE_MAX_BYTES: the caches would take 356 MiB of this process's 512 MiB \(MEMORY_LIMIT_BYTES 512 MiB\); at most half/,
    );
    expect(() => budget(env, 1, 700 * MIB)).toThrow(/377 MiB of this process's 700 MiB \(cgroup 700 MiB\)/);
    expect(budget(env).shares.content).toBe(200 * MIB);
  });

  it('is a setting like the others: checked at start, with its bounds in the message', () => {
    expect(() => loadConfig({ MEMORY_LIMIT_BYTES: '64m' })).toThrow(/MEMORY_LIMIT_BYTES/);
    expect(() => loadConfig({ MEMORY_LIMIT_BYTES: String(64 * MIB) })).toThrow(/MEMORY_LIMIT_BYTES: Too small/);
  });
});

/** A cache of `entries` entries of 1 MiB each, keys 0, 1, … in the order they were set (0 least recently used). */
function filledCache(entries: number) {
  const lru = new LRUCache<string, Buffer>({ maxSize: 64 * MIB, sizeCalculation: (b) => b.length });
  for (let i = 0; i < entries; i++) lru.set(String(i), Buffer.alloc(MIB));
  return lru;
}

function part(name: string, lru: LRUCache<string, Buffer>): ShrinkablePart {
  return { name, share: 64 * MIB, memoryHeld: () => lru.calculatedSize, shrinkTo: (bytes) => shrinkLru(lru, bytes) };
}

describe('MemoryPressure', () => {
  afterEach(() => vi.useRealTimers());

  it('under the line does nothing and gives room at once', async () => {
    const lru = filledCache(8);
    const shed = vi.fn();
    const pressure = new MemoryPressure({
      slice: 100 * MIB,
      enforced: true,
      parts: () => [part('a', lru)],
      onShed: shed,
      rss: () => 80 * MIB,
    });
    expect(pressure.line).toBe(85 * MIB);
    pressure.check();
    expect(pressure.high).toBe(false);
    expect(shed).not.toHaveBeenCalled();
    expect(lru.size).toBe(8);
    await expect(pressure.room(1_000)).resolves.toBeUndefined();
  });

  it('past the line halves every part at each reading, least recently used out, and says what it let go', () => {
    const a = filledCache(8);
    const b = filledCache(4);
    a.get('0');
    const shed = vi.fn();
    const pressure = new MemoryPressure({
      slice: 100 * MIB,
      enforced: true,
      parts: () => [part('a', a), part('b', b)],
      onShed: shed,
      rss: () => 90 * MIB,
    });
    pressure.check();
    expect(pressure.high).toBe(true);
    // '0' was read last: it stays; '1', '2', '3', '4' were the least recently used.
    expect([...a.keys()].sort()).toEqual(['0', '5', '6', '7']);
    expect([...b.keys()].sort()).toEqual(['2', '3']);
    expect(shed).toHaveBeenCalledWith({ rss: 90 * MIB, line: 85 * MIB, before: 12 * MIB, after: 6 * MIB });
    pressure.check();
    expect(a.size + b.size).toBe(3);
  });

  it('holds new work until the resident set falls under the line, and refuses it (busy) when it does not in time', async () => {
    vi.useFakeTimers();
    let rss = 90 * MIB;
    const pressure = new MemoryPressure({ slice: 100 * MIB, enforced: true, parts: () => [], rss: () => rss });
    let admitted = false;
    const waiting = pressure.room(5_000).then(() => (admitted = true));
    pressure.check();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(admitted).toBe(false);
    rss = 70 * MIB;
    pressure.check();
    await waiting;
    expect(admitted).toBe(true);

    rss = 95 * MIB;
    const refused = pressure.room(5_000).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(5_000);
    const error = await refused;
    expect(isContentError(error) && error.code).toBe('busy');
    expect(isContentError(error) && error.message).toMatch(/near its memory limit/);
  });

  it('leaves an entry being fetched alone: the requests waiting for its load get its answer', async () => {
    let answer: (value: Buffer) => void = () => {};
    const lru = new LRUCache<string, Buffer>({
      maxSize: 64 * MIB,
      sizeCalculation: (b) => b.length,
      fetchMethod: () => new Promise<Buffer>((resolve) => (answer = resolve)),
    });
    lru.set('held', Buffer.alloc(MIB));
    const loading = lru.fetch('loading');
    shrinkLru(lru, 0);
    expect(lru.has('held')).toBe(false);
    answer(Buffer.from('made'));
    expect(String(await loading)).toBe('made');
  });

  it('without a real limit neither watches nor sheds nor holds anything back', async () => {
    const lru = filledCache(8);
    const pressure = new MemoryPressure({ slice: 100 * MIB, enforced: false, parts: () => [part('a', lru)], rss: () => 99 * MIB });
    pressure.start();
    pressure.check();
    pressure.stop();
    expect(pressure.high).toBe(false);
    expect(lru.size).toBe(8);
    await expect(pressure.room(1)).resolves.toBeUndefined();
  });
});
