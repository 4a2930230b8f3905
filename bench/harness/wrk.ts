// wrk, the load: run against a URL, its figures read from its --latency output.
import { execFileSync, spawn } from 'node:child_process';
import { median } from './figures.js';

export interface WrkOptions {
  connections?: number;
  seconds?: number;
  headers?: Record<string, string>;
  /** A Lua script of wrk's. */
  script?: string;
  /** wrk's --timeout, e.g. '10s'. */
  timeout?: string;
}

export interface WrkFigures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  requests: number;
  socketErrors: string;
  out: string;
}

function toMs(value: string, unit: string): number {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n;
}

/** Parse wrk's --latency output. */
function parseWrk(out: string): WrkFigures {
  // wrk reports a broken script and then runs without it: a benchmark must not measure that.
  const scriptError = /^\S+\.lua: .*$/m.exec(out);
  if (scriptError) throw new Error(`wrk script error: ${scriptError[0]}`);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const pct = (p: number) => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s|m)\\b`).exec(out);
    return m?.[1] && m[2] ? toMs(m[1], m[2]) : NaN;
  };
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const socketErrors = /Socket errors:(.*)/.exec(out)?.[1]?.trim() ?? '';
  return { rps, p50: pct(50), p99: pct(99), non2xx, requests, socketErrors, out };
}

function wrkArgs(url: string, { connections = 50, seconds = 8, headers = {}, script, timeout }: WrkOptions): string[] {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency'];
  if (timeout) args.push('--timeout', timeout);
  if (script) args.push('-s', script);
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  return [...args, url];
}

/** Run wrk against a URL; returns requests/s, p50 and p99 latency in ms, and errors. */
export function wrk(url: string, options: WrkOptions = {}): WrkFigures {
  const out = execFileSync('wrk', wrkArgs(url, options), { encoding: 'utf8', timeout: ((options.seconds ?? 8) + 30) * 1000 });
  return parseWrk(out);
}

/** The same, without blocking the event loop (servers in this process keep answering). */
export function wrkAsync(url: string, options: WrkOptions = {}): Promise<WrkFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', wrkArgs(url, options), { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += String(d)));
    child.stderr.on('data', (d: Buffer) => (out += String(d)));
    const killer = setTimeout(() => child.kill('SIGKILL'), ((options.seconds ?? 8) + 30) * 1000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(killer);
      if (code === 0) resolve(parseWrk(out));
      else reject(new Error(`wrk exited ${code}: ${out}`));
    });
  });
}

export interface Compared {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  socketErrors: string;
  /** Requests/s of each counted round, in order: ratios to a target measured beside it pair round by round. */
  rounds: number[];
}

/**
 * Alternate wrk runs between targets, `rounds` times; the median of each figure per target.
 * A one-second run per target comes first and is not counted: the first run after a server
 * starts or changes target is often the slowest (JIT, connection setup, caches).
 */
export function compare<K extends string>(targets: Record<K, string>, { rounds = 3, ...options }: WrkOptions & { rounds?: number } = {}) {
  const entries = Object.entries(targets) as [K, string][];
  for (const [, url] of entries) wrk(url, { ...options, seconds: 1 });
  const runs = new Map<K, WrkFigures[]>(entries.map(([k]) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, url] of entries) runs.get(name)?.push(wrk(url, options));
  }
  return Object.fromEntries(
    [...runs].map(([name, list]) => [
      name,
      {
        rps: median(list.map((x) => x.rps)),
        p50: median(list.map((x) => x.p50)),
        p99: median(list.map((x) => x.p99)),
        errors: list.reduce((a, x) => a + x.non2xx, 0),
        rounds: list.map((x) => x.rps),
        socketErrors: list
          .map((x) => x.socketErrors)
          .filter(Boolean)
          .join('; '),
      },
    ]),
  ) as Record<K, Compared>;
}
