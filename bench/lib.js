// Helpers for the benchmarks: start processes on loopback, run wrk, read its figures.
// Everything here talks to 127.0.0.1 only and stops by itself.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

export const ROOT = new URL('..', import.meta.url).pathname;

export function ensureWrk() {
  if (existsSync('/usr/bin/wrk')) return;
  console.log('installing wrk from Debian packages…');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'wrk'], { stdio: 'inherit' });
}

export function ensureBuild() {
  if (existsSync(`${ROOT}dist/server/index.js`) && existsSync(`${ROOT}dist/client/.vite/manifest.json`)) return;
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

/** Start a node process and wait until `ready` appears on its stdout. */
export async function startNode(args, { env = {}, ready, timeoutMs = 15_000 } = {}) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let isReady = false;
  // Keep the output only until the process is ready; after that it is read and dropped.
  const collect = (d) => {
    if (!isReady) out += d;
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const started = Date.now();
  while (!out.includes(ready)) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited: ${out}`);
    if (Date.now() - started > timeoutMs) throw new Error(`${args.join(' ')} did not start: ${out}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  isReady = true;
  return {
    child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', resolve);
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  };
}

function toMs(value, unit) {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n;
}

/** Run wrk against a URL; returns requests/s, p50 and p99 latency in ms, and errors. */
export function wrk(url, { connections = 50, seconds = 8, headers = {} } = {}) {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency'];
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  const out = execFileSync('wrk', [...args, url], { encoding: 'utf8' });
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const pct = (p) => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s|m)`).exec(out);
    return m ? toMs(m[1], m[2]) : NaN;
  };
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const socketErrors = /Socket errors:(.*)/.exec(out)?.[1]?.trim() ?? '';
  return { rps, p50: pct(50), p99: pct(99), non2xx, socketErrors };
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Alternate wrk runs between targets, `rounds` times; the median of each figure per target. */
export function compare(targets, { rounds = 3, ...options } = {}) {
  const runs = Object.fromEntries(Object.keys(targets).map((k) => [k, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, url] of Object.entries(targets)) runs[name].push(wrk(url, options));
  }
  return Object.fromEntries(
    Object.entries(runs).map(([name, list]) => [
      name,
      {
        rps: median(list.map((x) => x.rps)),
        p50: median(list.map((x) => x.p50)),
        p99: median(list.map((x) => x.p99)),
        errors: list.reduce((a, x) => a + x.non2xx, 0),
      },
    ]),
  );
}

export function row(label, value, baseline) {
  const f = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
  return `| ${label} | ${f(value.rps)} | ${f(value.p50, 2)} | ${f(value.p99, 2)} | ${f(baseline.rps)} | ${f(baseline.p50, 2)} | ${f(baseline.p99, 2)} | ${f(value.rps / baseline.rps, 2)} | ${f(value.p99 / baseline.p99, 2)} |`;
}

export const TABLE_HEAD = [
  '| case | req/s | p50 ms | p99 ms | baseline req/s | baseline p50 | baseline p99 | throughput ratio | p99 ratio |',
  '|---|---|---|---|---|---|---|---|---|',
].join('\n');
