/** JSON logs with pino: one line per request (see request-observer.ts), errors with their context. */
import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Lines go to stdout asynchronously: under load, lines written while one write is in flight
 * are joined into the next, instead of one system call per request. pino flushes what is
 * pending when the process exits.
 */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      base: { service: 'site-bff' },
    },
    pino.destination({ dest: 1, sync: false }),
  );
}
