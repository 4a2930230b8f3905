// Helpers for the benchmarks: start processes on loopback, run wrk, read its figures, profile
// the service, write RESULTS.md. Everything here talks to 127.0.0.1 only and stops by itself.
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';

export const ROOT = new URL('..', import.meta.url).pathname;
export const RESULTS = `${ROOT}bench/RESULTS.md`;

/** What a desktop Chrome sends; pages are fetched with these headers. */
export const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
export const BROWSER_HEADERS = {
  'User-Agent': CHROME_UA,
  'Accept-Encoding': 'gzip, br',
  Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
};

/** The three pages measured by pages.js and render.js (the list and browser pages too). */
export const PAGES = {
  home: '/',
  'news list': `/news/index?id=19&name=${encodeURIComponent('集团新闻')}`,
  'expert detail': '/zjxz/detail?id=1',
};

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

let logFiles = 0;

/** Children still running: killed if this process exits early (an error, Ctrl-C, SIGTERM). */
const live = new Set();
/** Temporary files of this run, deleted when it exits. */
const temporary = new Set();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
  for (const file of temporary) rmSync(file, { force: true });
});

/** A path in the temporary directory, deleted when this process exits. */
export function tempPath(name) {
  const file = join(tmpdir(), `bench-${process.pid}-${name}`);
  temporary.add(file);
  return file;
}
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));

/**
 * Start a node process and wait until `ready` appears on its output. The output goes to a
 * file, never to a pipe: a pipe that this process does not drain while wrk runs synchronously
 * would block the child's synchronous logging (pino waits in atomic-sleep on a full pipe) and
 * distort every figure. `onLine` sees every output line for the process's whole life (read
 * from the file every 200 ms and once more after exit); the file is deleted on stop.
 */
export async function startNode(args, { env = {}, ready, probe, timeoutMs = 15_000, onLine, nodeArgs = [] } = {}) {
  const file = tempPath(`${++logFiles}-${args[0].split('/').pop()}.log`);
  const fd = openSync(file, 'w');
  let child;
  try {
    child = spawn(process.execPath, [...nodeArgs, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', fd, fd],
    });
  } finally {
    closeSync(fd);
  }
  live.add(child);
  child.once('exit', () => live.delete(child));
  let offset = 0;
  let partial = '';
  const tail = () => {
    if (!onLine) return;
    let text;
    try {
      const reader = openSync(file, 'r');
      try {
        const size = fstatSync(reader).size;
        if (size <= offset) return;
        const buf = Buffer.alloc(size - offset);
        readSync(reader, buf, 0, buf.length, offset);
        offset = size;
        text = buf.toString('utf8');
      } finally {
        closeSync(reader);
      }
    } catch {
      return;
    }
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    if (partial.length > 1_000_000) partial = '';
    for (const line of lines) onLine(line);
  };
  const tailer = onLine ? setInterval(tail, 200) : undefined;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let stopping;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(force);
      }
      clearInterval(tailer);
      tail();
      rmSync(file, { force: true });
    })());
  const read = () => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  };
  const started = Date.now();
  let out = '';
  try {
    while (probe ? !(await probe()) : !(out = read()).includes(ready)) {
      if (probe) out = read();
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited: ${out}`);
      if (Date.now() - started > timeoutMs) throw new Error(`${args.join(' ')} did not start: ${out}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, output: out, stop, logFile: file };
}

/** The JSON log lines of a pino output, parsed (other lines skipped). */
export function logLines(output) {
  return output.split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line)];
    } catch {
      return [];
    }
  });
}

/**
 * Start the production service on a free loopback port (PORT=0), as one process (WORKERS=1)
 * unless `env` says otherwise. Resolves with its base URL, the embedded content API's URL when
 * it started one, and stop().
 */
export async function startService({ env: given = {}, nodeArgs = [], onLine, timeoutMs } = {}) {
  // One process unless a benchmark asks for workers: each figure compares one service process with
  // one baseline process. The per-client limits (budget, connections, renders at once) and shedding
  // are off unless a benchmark measures them: every load here comes from one address, and is meant
  // to reach the service. Real-user measurement too: its chunk loads after the first view (decision
  // 036), which the browser figures would otherwise count among a first view's bytes.
  const env = {
    WORKERS: '1',
    // The embedded demo content unless a benchmark names an upstream (production asks for it by name).
    CONTENT: 'demo',
    RATE_LIMIT_MISSES: '0',
    SHED_EVENT_LOOP_LAG_MS: '0',
    MAX_CONNECTIONS_PER_CLIENT: '100000',
    RENDERS_PER_CLIENT: '0',
    RUM_SAMPLE_RATE: '0',
    ...given,
  };
  const level = env.LOG_LEVEL ?? 'info';
  if (!['info', 'debug', 'trace'].includes(level)) {
    // No `listening` line at this level: a free port, and /healthz tells when it is up.
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const proc = await startNode(['dist/server/index.js'], {
      env: { NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', ...env },
      probe: () =>
        rawGet(`${url}/healthz`).then(
          (r) => r.status === 200,
          () => false,
        ),
      nodeArgs,
      onLine,
    });
    return { ...proc, url, upstream: env.UPSTREAM_URL, embeddedUrl: undefined };
  }
  const proc = await startNode(['dist/server/index.js'], {
    env: { NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    ready: '"msg":"listening"',
    nodeArgs,
    onLine,
    timeoutMs,
  });
  const lines = logLines(proc.output);
  const listening = lines.find((l) => l.msg === 'listening');
  const embedded = lines.find((l) => /embedded content API started/.test(l.msg ?? ''));
  return { ...proc, url: listening.url, upstream: listening.upstream, embeddedUrl: embedded?.url };
}

/** A port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Start one of the bench's own node:http servers; it prints `ready <port>` once listening. */
export async function startHelper(script, args = [], env = {}) {
  const name = script.split('/').pop();
  let ready = false;
  // After `ready`, whatever a helper prints (a crash, above all) is shown.
  const onLine = (line) => {
    if (ready && line.trim() && !line.startsWith('ready ')) process.stderr.write(`[${name}] ${line}\n`);
  };
  const proc = await startNode([script, ...args.map(String)], { ready: 'ready', env: { NODE_ENV: 'production', ...env }, onLine });
  ready = true;
  const port = Number(/ready (\d+)/.exec(proc.output)?.[1]);
  if (!port) {
    await proc.stop();
    throw new Error(`${script} printed no port: ${proc.output}`);
  }
  return { ...proc, port, url: `http://127.0.0.1:${port}` };
}

/** One GET with undici: status, headers and the raw (still compressed) body bytes. */
export async function rawGet(url, headers = {}) {
  const res = await request(url, { headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body };
}

const HOP_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** A response as static-server.js serves it: status, headers (without hop-by-hop), body. */
export function storedResponse({ status, headers, body }) {
  const kept = Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_HEADERS.has(k.toLowerCase())));
  return { status, headers: kept, body: body.toString('base64') };
}

/**
 * The raw node:http baseline (static-server.js) answering one stored response, as
 * `storedResponse` keeps it, at any path; `routes` instead serves one response per path. Stop it
 * with stop().
 */
export function rawBaseline(name, { answer, routes }) {
  const file = tempPath(`${name.replace(/\W+/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(routes ? { routes } : storedResponse(answer)));
  return startHelper('bench/static-server.js', [file, 0]);
}

function toMs(value, unit) {
  const n = Number(value);
  return unit === 'us' ? n / 1000 : unit === 's' ? n * 1000 : unit === 'm' ? n * 60_000 : n;
}

/** Parse wrk's --latency output. */
export function parseWrk(out) {
  // wrk reports a broken script and then runs without it: a benchmark must not measure that.
  const scriptError = /^\S+\.lua: .*$/m.exec(out);
  if (scriptError) throw new Error(`wrk script error: ${scriptError[0]}`);
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const pct = (p) => {
    const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s|m)\\b`).exec(out);
    return m ? toMs(m[1], m[2]) : NaN;
  };
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const socketErrors = /Socket errors:(.*)/.exec(out)?.[1]?.trim() ?? '';
  return { rps, p50: pct(50), p99: pct(99), non2xx, requests, socketErrors, out };
}

/** Run wrk against a URL; returns requests/s, p50 and p99 latency in ms, and errors. */
export function wrk(url, { connections = 50, seconds = 8, headers = {}, script, timeout } = {}) {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency'];
  if (timeout) args.push('--timeout', timeout);
  if (script) args.push('-s', script);
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  const out = execFileSync('wrk', [...args, url], { encoding: 'utf8', timeout: (seconds + 30) * 1000 });
  return parseWrk(out);
}

/** The same, without blocking the event loop (servers in this process keep answering). */
export function wrkAsync(url, { connections = 50, seconds = 8, headers = {}, script, timeout } = {}) {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency'];
  if (timeout) args.push('--timeout', timeout);
  if (script) args.push('-s', script);
  for (const [k, v] of Object.entries(headers)) args.push('-H', `${k}: ${v}`);
  return new Promise((resolve, reject) => {
    const child = spawn('wrk', [...args, url], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(killer);
      if (code === 0) resolve(parseWrk(out));
      else reject(new Error(`wrk exited ${code}: ${out}`));
    });
  });
}

export function median(values) {
  const s = [...values].filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : NaN;
}

/** The q-quantile (0..1) of a list of numbers, nearest rank. */
export function quantile(values, q) {
  const s = [...values].sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
}

/**
 * An ordinary visitor at 127.0.0.2 (another client than wrk's 127.0.0.1) asking for `paths` in turn
 * every 20 ms until stopped: latencies and failures (a 404 is an answer, not a failure).
 */
export function visitor(base, paths, headers = { accept: 'text/html' }) {
  const agent = new Agent({ localAddress: '127.0.0.2', connections: 4 });
  const latencies = [];
  const failures = new Map();
  let going = true;
  const done = (async () => {
    for (let i = 0; going; i++) {
      const started = performance.now();
      try {
        const res = await request(base + paths[i % paths.length], { dispatcher: agent, headers });
        await res.body.dump();
        latencies.push(performance.now() - started);
        if (res.statusCode >= 400 && res.statusCode !== 404) failures.set(res.statusCode, (failures.get(res.statusCode) ?? 0) + 1);
      } catch (error) {
        failures.set(String(error?.code ?? error), (failures.get(String(error?.code ?? error)) ?? 0) + 1);
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    await agent.close();
  })();
  return {
    async stop() {
      going = false;
      await done;
      const errors = [...failures.values()].reduce((a, b) => a + b, 0);
      return { requests: latencies.length + errors, errors, failures, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
    },
  };
}

/**
 * Alternate wrk runs between targets, `rounds` times; the median of each figure per target.
 * A one-second run per target comes first and is not counted: the first run after a server
 * starts or changes target is often the slowest (JIT, connection setup, caches).
 */
export function compare(targets, { rounds = 3, ...options } = {}) {
  for (const url of Object.values(targets)) wrk(url, { ...options, seconds: 1 });
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
        socketErrors: list
          .map((x) => x.socketErrors)
          .filter(Boolean)
          .join('; '),
      },
    ]),
  );
}

export const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');

export function row(label, value, baseline) {
  const f = fmt;
  return `| ${label} | ${f(value.rps)} | ${f(value.p50, 2)} | ${f(value.p99, 2)} | ${f(baseline.rps)} | ${f(baseline.p50, 2)} | ${f(baseline.p99, 2)} | ${f(value.rps / baseline.rps, 2)} | ${f(value.p99 / baseline.p99, 2)} |`;
}

export const TABLE_HEAD = [
  '| case | req/s | p50 ms | p99 ms | baseline req/s | baseline p50 | baseline p99 | throughput ratio | p99 ratio |',
  '|---|---|---|---|---|---|---|---|---|',
].join('\n');

/** A markdown table from a header row and rows of cells. */
export function table(head, rows) {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** A process's resident memory now, in MiB (NaN once it has exited). */
export function rssMiB(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
  } catch {
    return NaN;
  }
}

/** The command that is running, as written in RESULTS.md. */
export function commandLine() {
  return process.env.BENCH_COMMAND ?? `node bench/${process.argv[1].split('/').pop()}`;
}

/**
 * This script's arguments, read by node's util.parseArgs: the options it declares (`--name=value`
 * or `--name value` for a string, `--name` for a boolean) and its positionals. An option it does
 * not declare, or a string without its value, stops it with parseArgs's error naming it.
 */
export function readArgs(options) {
  return parseArgs({ options, allowPositionals: true });
}

/** Whether this module is the script node was started with. */
export function isMain(metaUrl) {
  return metaUrl === `file://${process.argv[1]}`;
}

const PREAMBLE = `# Benchmark results

Written by the scripts in bench/ (each section by the command named in it; \`npm run bench\`
rewrites every section it runs). Loopback only, on the project's machine (2 cores, shared,
noisy). Each figure sits beside a baseline measured in the same run, in alternating rounds:
the ratios are what to compare across runs, not the absolute figures.
`;

/**
 * Replace (or append) one section of RESULTS.md, delimited by HTML comments, so that a script
 * run on its own refreshes its own tables and leaves the others.
 */
export function writeSection(id, markdown) {
  const start = `<!-- bench:${id} -->`;
  const end = `<!-- /bench:${id} -->`;
  let text = existsSync(RESULTS) ? readFileSync(RESULTS, 'utf8') : PREAMBLE;
  if (!text.includes('<!-- bench:')) text = PREAMBLE; // the old hand-written layout
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const at = text.indexOf(start);
  const until = text.indexOf(end);
  text = at !== -1 && until > at ? text.slice(0, at) + block + text.slice(until + end.length) : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(RESULTS, text);
}

/** Order the sections of RESULTS.md as given (unknown ones stay at the end). */
/**
 * Run a benchmark (`bench()` resolves to `{ met, markdown, ... }`), add `profile(result)`'s
 * markdown when its target is missed, and write the result as section `id` of RESULTS.md.
 */
export async function measureSection(id, bench, profile, { alwaysProfile = false } = {}) {
  const r = await bench();
  const markdown = r.met && !alwaysProfile ? r.markdown : `${r.markdown}\n${await profile(r)}`;
  writeSection(id, markdown);
  return { ...r, markdown };
}

export function orderSections(ids) {
  if (!existsSync(RESULTS)) return;
  const text = readFileSync(RESULTS, 'utf8');
  const blocks = new Map();
  const re = /<!-- bench:([\w-]+) -->[\s\S]*?<!-- \/bench:\1 -->/g;
  for (const m of text.matchAll(re)) blocks.set(m[1], m[0]);
  const ordered = [...ids.filter((id) => blocks.has(id)), ...[...blocks.keys()].filter((id) => !ids.includes(id))];
  writeFileSync(RESULTS, `${PREAMBLE}\n${ordered.map((id) => blocks.get(id)).join('\n\n')}\n`);
}

export function stamp() {
  return `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, Node ${process.version}`;
}

/**
 * Top self-time functions of a V8 .cpuprofile: [{ name, where, ms, share }], aggregated by
 * function and location, idle and GC included as V8 names them.
 */
export function topSelfTime(profile, limit = 15) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const fileOf = (frame) =>
    frame.url
      ? `${frame.url
          .replace(/^file:\/\//, '')
          .replace(ROOT, '')
          .replace(/^.*node_modules\//, '')}:${frame.lineNumber + 1}`
      : '';
  /** Native functions (no URL) are named with their nearest JavaScript caller. */
  const callerOf = (id) => {
    for (let p = parent.get(id); p !== undefined; p = parent.get(p)) {
      const frame = byId.get(p).callFrame;
      if (frame.url) return `called from \`${frame.functionName || '(anonymous)'}\` ${fileOf(frame)}`;
    }
    return '';
  };
  const self = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const agg = new Map();
  for (const [id, us] of self) {
    const frame = byId.get(id).callFrame;
    const name = frame.functionName || '(anonymous)';
    const where = frame.url ? fileOf(frame) : name.startsWith('(') ? '' : callerOf(id);
    const key = `${name} ${where}`;
    const a = agg.get(key) ?? { name, where, us: 0 };
    a.us += us;
    agg.set(key, a);
  }
  return [...agg.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, limit)
    .map((a) => ({ name: a.name, where: a.where, ms: a.us / 1000, share: a.us / total }));
}

/** Self time grouped by package (node_modules/<pkg>), the service's bundle, node internals… */
export function selfTimeByArea(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const area = new Map();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const { url, functionName } = byId.get(id).callFrame;
    let name;
    if (!url) name = functionName.startsWith('(') ? functionName : '(native)';
    else if (url.includes('node_modules/')) name = url.replace(/^.*node_modules\/((?:@[^/]+\/)?[^/]+).*$/, '$1');
    else if (url.startsWith('node:')) name = 'node internals';
    else if (url.includes('/dist/server/')) name = 'service bundle (dist/server)';
    else name = url.replace(/^file:\/\//, '').replace(ROOT, '');
    area.set(name, (area.get(name) ?? 0) + dt);
  });
  return [...area.entries()].sort((a, b) => b[1] - a[1]).map(([name, us]) => ({ name, share: us / total }));
}

/** CPU seconds a process has used (user and system), from /proc. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Resolves once a process has used less than 2 % of a core over half a second (at most
 * `timeoutMs`): what a start or a first render set going in the background (the search index,
 * images described, variants made ahead) is done, and a measurement sees the steady state.
 */
export async function settled(pid, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let before = cpuSeconds(pid);
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpuSeconds(pid);
    if (now - before < 0.01) return;
    before = now;
  }
}

/** Now on the clock V8's profiler stamps its samples with (CLOCK_MONOTONIC), in microseconds. */
export const profileClock = () => Number(process.hrtime.bigint() / 1000n);

/**
 * Run the service under `node --cpu-prof` while `load(serviceUrl, pid)` runs, stop it, and
 * summarise the profile (top self-time functions and the share by package) as markdown. When
 * `load` answers a window `{ from, to }` (profileClock), only the samples within it count: the
 * start and the warm-up are left out.
 */
export async function profileService(load, { env = {}, limit = 12 } = {}) {
  const dir = join(ROOT, 'bench/.build/profiles');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const service = await startService({ env, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
  let window;
  try {
    window = await load(service.url, service.child.pid);
  } finally {
    await service.stop();
  }
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return '(no profile was written)';
  const profile = within(JSON.parse(readFileSync(join(dir, file), 'utf8')), window);
  const top = topSelfTime(profile, limit);
  const areas = selfTimeByArea(profile).slice(0, 8);
  return [
    table(
      ['self time', 'share', 'function', 'where'],
      top.map((t) => [
        `${fmt(t.ms)} ms`,
        `${fmt(t.share * 100, 1)} %`,
        `\`${t.name}\``,
        t.where.startsWith('called') ? t.where : t.where ? `\`${t.where}\`` : '',
      ]),
    ),
    '',
    `By package: ${areas.map((a) => `${a.name} ${fmt(a.share * 100, 1)} %`).join(', ')}.`,
  ].join('\n');
}

/** The profile's samples taken within `window` (profileClock), or all of them without one. */
function within(profile, window) {
  if (!window) return profile;
  const samples = [];
  const timeDeltas = [];
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i];
    if (at < window.from || at > window.to) return;
    samples.push(id);
    timeDeltas.push(profile.timeDeltas[i]);
  });
  return { ...profile, samples, timeDeltas };
}

/**
 * Compile bench/bare-render-entry.tsx with Vite's SSR build (the route tree needs Vite's
 * import.meta.glob) into bench/.build/bare-render/bare-render.js. Rebuilt every run, so that it
 * renders the current sources. Returns the script's path, relative to the project.
 */
export async function buildBareRender() {
  const { build } = await import('vite');
  const react = (await import('@vitejs/plugin-react')).default;
  await build({
    root: ROOT,
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    plugins: [react()],
    build: {
      ssr: 'bench/bare-render-entry.tsx',
      outDir: 'bench/.build/bare-render',
      emptyOutDir: true,
      target: 'node26',
      copyPublicDir: false,
      rollupOptions: { output: { entryFileNames: 'bare-render.js' } },
    },
  });
  return 'bench/.build/bare-render/bare-render.js';
}

/** A redis-server (Debian's) on a free loopback port, stopped by pid. */
export async function startRedis() {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 200; i++) {
    try {
      await rawGet(`http://127.0.0.1:${port}`);
    } catch (error) {
      // Redis answers HTTP with a protocol error: the port is open once the error is not a refusal.
      if (!/ECONNREFUSED/.test(String(error?.cause ?? error))) break;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}

/** A content API in front of the embedded one (`target`) that answers after `delayMs` and counts calls per path and query. */
export async function countingUpstream(target, delayMs) {
  const calls = new Map();
  const agent = new Agent({ connections: 64 });
  const server = createServer(async (req, res) => {
    calls.set(req.url, (calls.get(req.url) ?? 0) + 1);
    await new Promise((r) => setTimeout(r, delayMs));
    const answer = await request(target + req.url, { dispatcher: agent });
    const body = Buffer.from(await answer.body.arrayBuffer());
    res.writeHead(answer.statusCode, { 'content-type': 'application/json' }).end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    calls,
    async stop() {
      await new Promise((r) => server.close(r));
      await agent.close();
    },
  };
}
