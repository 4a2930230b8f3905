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
  return pino({ level, base }, recent ? teeToRecent(destination, recent) : destination);
}

/**
 * stdout, and the warnings and errors for the status page (recent-errors.ts): every line a
 * warning or worse, except the request lines of 4xx answers, which are the visitors' mistakes.
 */
function teeToRecent(destination: ReturnType<typeof pino.destination>, recent: RecentErrors) {
  return {
    write(line: string) {
      destination.write(line);
      const level = Number(/^\{"level":(\d+)/.exec(line)?.[1] ?? 0);
      if (level >= 50 || (level >= 40 && !line.includes('"msg":"request"'))) recent.write(line);
    },
    flush: (done?: (error?: Error) => void) => destination.flush(done),
    flushSync: () => destination.flushSync(),
  };
}
