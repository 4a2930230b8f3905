/** JSON logs with pino: one line per request (see request-observer.ts), errors with their context. */
import { hostname } from 'node:os';
import { pino, type Logger } from 'pino';
import type { RecentErrors } from './recent-errors.js';

export type { Logger };

/** At most this long between a line and its write. */
const FLUSH_MS = 100;

/**
 * Lines go to stdout asynchronously, gathered until there are 4 KB of them or FLUSH_MS has
 * passed: one write for about fifteen request lines. Each write hands work to libuv's thread
 * pool, which is dear per write (docs/decisions/012).
 * Written asynchronously, a slow reader of stdout never blocks the service. pino writes what
 * is pending when the process exits.
 */
export function createLogger(level: string, recent?: RecentErrors): Logger {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  const timer = setInterval(() => {
    try {
      destination.flush();
    } catch (error) {
      // The destination was destroyed: nothing more can be written to it; say so once.
      clearInterval(timer);
      process.stderr.write(`log destination closed: ${String(error)}\n`);
    }
  }, FLUSH_MS);
  timer.unref();
  // pid and hostname say which process of the fleet wrote a line (a worker, an instance).
  const base = { service: 'site-bff', pid: process.pid, hostname: hostname() };
  if (!recent) return pino({ level, base }, destination);
  // The warnings and errors go to the status page's list too (recent-errors.ts): pino routes each line by its
  // level. A multistream has no flush(): the logger's (main.ts, at exit) is stdout's.
  const streams = pino.multistream([
    { level, stream: destination },
    { level: 'warn', stream: recent },
  ]);
  return pino({ level, base }, Object.assign(streams, { flush: (done: (error?: Error) => void) => destination.flush(done) }));
}
