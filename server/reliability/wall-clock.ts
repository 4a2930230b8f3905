/**
 * The clock the caches' windows are kept on: the wall clock. A freshness is an instant the
 * service's processes and machines share (through Redis), so every check of it reads Date.now(),
 * and the caches that keep an entry until such an instant (lru-cache's `perf`, which would
 * otherwise be performance.now()) read the same. One clock for both also lets a test move time on
 * (vitest's fake Date, test/support/wall-clock.ts) instead of waiting for a window to pass.
 */
export const WALL_CLOCK = { now: (): number => Date.now() };
