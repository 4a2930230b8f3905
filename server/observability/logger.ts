/** JSON logs with pino: one line per request (see request-observer.ts), errors with their context. */
import { hostname } from 'node:os';
import { pino, type Logger } from 'pino';
import type { RecentErrors } from './recent-errors.js';

export type { Logger };

/** At most this long between a line and its write. */
const FLUSH_MS = 100;
/**
 * Bytes gathered before a write: about forty request lines. Below sonic-boom's largest single
 * write (16 KB), so that one write is one chunk of whole lines.
 */
const GATHER_BYTES = 12 * 1024;

/**
 * Lines go to stdout through pino's asynchronous destination (sonic-boom), gathered until there
 * are GATHER_BYTES of them or FLUSH_MS has passed (its periodic flush). Each write hands work to
 * libuv's thread pool and wakes a thread, which is dear per write on a cached hit
 * (docs/decisions/012 and 058): the fewer writes, the less a request pays. Written
 * asynchronously, a slow reader of stdout never blocks the service. pino writes what is gathered
 * synchronously when the process exits (main.ts waits for the write first on a stop) and with
 * every fatal line (logCrashes).
 */
export function createLogger(level: string, recent?: RecentErrors): Logger {
  const destination = pino.destination({ dest: 1, sync: false, minLength: GATHER_BYTES, periodicFlush: FLUSH_MS });
  // pid and hostname say which process of the fleet wrote a line (a worker, an instance).
  const base = { service: 'site-bff', pid: process.pid, hostname: hostname() };
  return recent ? pino({ level, base }, withRecent(destination, level, recent)) : pino({ level, base }, destination);
}

/**
 * A crash (an exception nothing caught, a rejection nothing handled) is logged as a fatal line
 * before Node prints the error and ends the process as it always does: `uncaughtExceptionMonitor`
 * observes, it changes nothing. pino writes a fatal line synchronously with all gathered before
 * it; its exit handler, which Node runs for a crash too, would otherwise.
 */
export function logCrashes(log: Logger): void {
  process.on('uncaughtExceptionMonitor', (error, origin) => {
    log.fatal({ err: error, origin }, 'crashed');
  });
}

function withRecent(destination: ReturnType<typeof pino.destination>, level: string, recent: RecentErrors) {
  // The warnings and errors go to the status page's list too (recent-errors.ts): pino routes each line by its
  // level. A multistream has no flush(): the logger's (main.ts, on a stop) is stdout's.
  const streams = pino.multistream([
    { level, stream: destination },
    { level: 'warn', stream: recent },
  ]);
  return Object.assign(streams, { flush: (done: (error?: Error) => void) => destination.flush(done) });
}
