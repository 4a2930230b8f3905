/**
 * Stands in for `async_hooks` in React's server renderer, in the production server build only
 * (vite.config.ts). React keeps the request it renders in an AsyncLocalStorage so that
 * `preload()` and friends called from asynchronous code find it; this site calls none from
 * asynchronous code, and while React renders it sets the request itself. On Node 20 the first
 * `AsyncLocalStorage.run()` turns on async hooks for the whole process, for good: every later
 * request, promise and socket pays for them (about 3 µs of a 33 µs cached API hit;
 * docs/decisions/012). This storage holds its store only while `run()`'s callback runs.
 */
export class AsyncLocalStorage<T> {
  #store: T | undefined;

  run<R, A extends unknown[]>(store: T, callback: (...args: A) => R, ...args: A): R {
    const previous = this.#store;
    this.#store = store;
    try {
      return callback(...args);
    } finally {
      this.#store = previous;
    }
  }

  getStore(): T | undefined {
    return this.#store;
  }
}
