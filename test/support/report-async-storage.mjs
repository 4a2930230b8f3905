// Preloaded into the built server by the smoke test (`node --import`): writes to stderr when
// anything enters an AsyncLocalStorage, which on Node 20 switches on async hooks for the whole
// process (see server/render/sync-request-storage.ts). The smoke test expects an empty stderr.
import { AsyncLocalStorage } from 'node:async_hooks';

for (const method of ['run', 'enterWith']) {
  const original = AsyncLocalStorage.prototype[method];
  let reported = false;
  AsyncLocalStorage.prototype[method] = function (...args) {
    if (!reported) {
      reported = true;
      process.stderr.write(`AsyncLocalStorage.${method} was called:\n${new Error().stack}\n`);
    }
    return original.apply(this, args);
  };
}
