/**
 * The last log entries at warn or above, kept in memory for the status page. A pino destination:
 * given to `pino.multistream` beside stdout at level warn (logger.ts), it reads the JSON lines pino
 * writes. The request lines of 4xx answers (warn) are left out: they are the visitors' mistakes.
 */

export interface RecentError {
  time: Date;
  /** pino's level name: warn, error or fatal (or the number, for a level pino does not name). */
  level: string;
  msg: string;
  /** The entry's other fields as text, each cut to a readable length. */
  context: Readonly<Record<string, string>>;
}

const LEVELS: Readonly<Record<number, string>> = { 40: 'warn', 50: 'error', 60: 'fatal' };
const WARN = 40;
const ERROR = 50;
/** Fields every line carries, which say nothing about what happened. */
const OMITTED = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'service', 'v']);
/** Bounds on what one entry keeps, so that a huge log line cannot make the list huge. */
const MAX_MSG = 500;
const MAX_VALUE = 300;
const MAX_FIELDS = 20;

export class RecentErrors {
  readonly #size: number;
  /** A ring: #entries[#next] is the oldest once it is full. */
  readonly #entries: RecentError[] = [];
  #next = 0;

  constructor(size = 50) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`RecentErrors: size must be a positive integer, not ${size}`);
    this.#size = size;
  }

  /** pino's destination interface: one or more JSON lines. */
  write(chunk: string): boolean {
    for (const line of chunk.split('\n')) {
      if (line.trim() !== '') this.#add(line);
    }
    return true;
  }

  /** Newest first. */
  list(): RecentError[] {
    const oldestFirst = [...this.#entries.slice(this.#next), ...this.#entries.slice(0, this.#next)];
    return oldestFirst.reverse();
  }

  #add(line: string): void {
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      return; // pino writes JSON; anything else is not a log entry
    }
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return;
    const fields = entry as Record<string, unknown>;
    const level = levelOf(fields.level);
    if (level === undefined || level < WARN || (fields.msg === 'request' && level < ERROR)) return;
    const context: Record<string, string> = {};
    for (const [key, value] of Object.entries(fields)) {
      if (OMITTED.has(key) || value === undefined) continue;
      if (Object.keys(context).length === MAX_FIELDS) break;
      context[key] = cut(key === 'err' ? errorText(value) : asText(value), MAX_VALUE);
    }
    const recent: RecentError = {
      time: timeOf(fields.time),
      level: LEVELS[level] ?? String(level),
      msg: cut(typeof fields.msg === 'string' ? fields.msg : asText(fields.msg ?? ''), MAX_MSG),
      context,
    };
    if (this.#entries.length < this.#size) this.#entries.push(recent);
    else {
      this.#entries[this.#next] = recent;
      this.#next = (this.#next + 1) % this.#size;
    }
  }
}

function levelOf(level: unknown): number | undefined {
  if (typeof level === 'number') return level;
  // A logger with formatters.level writes the name.
  const named = Object.entries(LEVELS).find(([, name]) => name === level);
  return named ? Number(named[0]) : undefined;
}

function timeOf(time: unknown): Date {
  const date = typeof time === 'number' || typeof time === 'string' ? new Date(time) : new Date(NaN);
  return Number.isNaN(date.getTime()) ? new Date() : date;
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

/** pino's serialised error, as its type and message: the stack is in the log, too long for a table cell. */
function errorText(err: unknown): string {
  if (typeof err !== 'object' || err === null) return asText(err);
  const { type, message } = err as { type?: unknown; message?: unknown };
  if (typeof message !== 'string') return asText(err);
  return typeof type === 'string' ? `${type}: ${message}` : message;
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  // Never half of a surrogate pair (an emoji, a rare CJK character).
  if (/[\uD800-\uDBFF]/.test(text[end - 1] ?? '')) end--;
  return `${text.slice(0, end)}…`;
}
