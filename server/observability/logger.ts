/** JSON logs with pino: one line per request (see request-log.ts), errors with their context. */
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino({
    level,
    base: { service: 'site-bff' },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
