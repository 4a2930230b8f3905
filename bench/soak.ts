// Soak (`npm run bench -- soak`, about 90 s): 60 s of mixed page and API traffic (wrk, a Lua
// script rotating over the 20 page routes and the 21 API paths) while the content API fails
// and recovers behind a controllable proxy in this process:
//   15 s healthy → 10 s refusing connections → 10 s hanging → 10 s answering 500 → 15 s healthy.
// A first service instance provides the embedded content API; the measured instance reads it
// through the proxy with CACHE_MAX_AGE_MS=2000, CACHE_STALE_WHILE_REVALIDATE_S=1 and
// CACHE_STALE_IF_ERROR_S=600. Records, per phase, requests served, statuses, socket errors, p50
// and p99, the service's warnings, and its RSS (VmRSS) from start to end. Loopback only;
// bounded in time; every process and server it starts is stopped, also on failure.
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { API_ITEMS, API_PATHS } from '../test/support/mixed-load.js';
import { benchArgs, isMain } from './harness/args.js';
import { fmt, stamp, table } from './harness/figures.js';
import { BROWSER_HEADERS, rawGet } from './harness/http.js';
import { ROOT, ensureBuild, ensureWrk, tempPath } from './harness/processes.js';
import { commandLine, writeSection } from './harness/results.js';
import { startService, type ServiceProcess } from './harness/service.js';
import { wrkAsync, type WrkFigures } from './harness/wrk.js';

/** `--cycles=N` (1…10, default 1) repeats the failing part and the recovery N times. */
const CYCLES = Math.min(10, Math.max(1, Number(benchArgs({ cycles: { type: 'string' } }).values.cycles ?? 1) || 1));
type Mode = 'healthy' | 'refuse' | 'hang' | 'error';
const CYCLE = (n: string): { name: string; mode: Mode; seconds: number }[] => [
  { name: `refusing connections${n}`, mode: 'refuse', seconds: 10 },
  { name: `hanging (never answers)${n}`, mode: 'hang', seconds: 10 },
  { name: `answering 500${n}`, mode: 'error', seconds: 10 },
  { name: `healthy again${n}`, mode: 'healthy', seconds: 15 },
];
const PHASES: { name: string; mode: Mode; seconds: number }[] = [
  { name: 'healthy', mode: 'healthy', seconds: 15 },
  ...Array.from({ length: CYCLES }, (_, i) => CYCLE(CYCLES > 1 ? ` #${i + 1}` : '')).flat(),
];
const CONNECTIONS = 20;
const CACHE_MAX_BYTES = 64 * 1024 * 1024;
const SERVICE_ENV = {
  CACHE_MAX_AGE_MS: '2000',
  CACHE_STALE_WHILE_REVALIDATE_S: '1',
  CACHE_STALE_IF_ERROR_S: '600',
};

/** The 20 page routes (read from shared/site/route-table.ts; detail pages get an existing id). */
function pageUrls() {
  const source = readFileSync(`${ROOT}shared/site/route-table.ts`, 'utf8');
  const paths = [...source.matchAll(/\bpath: '([^']+)'/g)].map((m) => m[1] ?? '');
  const query: Record<string, string> = {
    '/hzhf/kpzsDetail': '?id=101',
    '/gnyy/detail': '?id=201',
    '/zjxz/detail': '?id=1',
    '/news/index': `?id=19&name=${encodeURIComponent('集团新闻')}`,
  };
  return paths.map((p) => p + (query[p] ?? ''));
}

/** The content API's paths: the mixed load's lists, with the first item of each kind. */
const API_URLS = [...API_PATHS, ...API_ITEMS.map((item) => item(0))];

/** wrk Lua: rotate over the URLs, count answers by status, print them when done. */
function luaScript(urls: string[]) {
  return `local paths = { ${urls.map((u: string) => JSON.stringify(u)).join(', ')} }
local i = 0
counts = {}
request = function()
  i = i + 1
  return wrk.format("GET", paths[(i % #paths) + 1])
end
response = function(status, headers, body)
  counts[status] = (counts[status] or 0) + 1
end
local threads = {}
setup = function(thread) table.insert(threads, thread) end
done = function(summary, latency, requests)
  for _, t in ipairs(threads) do
    for status, n in pairs(t:get("counts")) do io.write(string.format("status %d %d\\n", status, n)) end
  end
  local e = summary.errors
  io.write(string.format("errors connect %d read %d write %d status %d timeout %d\\n", e.connect, e.read, e.write, e.status, e.timeout))
end
`;
}

/**
 * A proxy to the content API whose behaviour is switched by setMode: 'healthy' forwards,
 * 'refuse' closes the listener and every connection (connections are refused), 'hang' accepts
 * and never answers, 'error' answers 500.
 */
async function startFlakyProxy(target: string) {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const sockets = new Set<Socket>();
  const hanging = new Set<ServerResponse>();
  let mode: Mode | 'closed' = 'healthy';
  const server = createServer((req, res) => {
    if (mode === 'hang') {
      hanging.add(res);
      res.once('close', () => hanging.delete(res));
      return;
    }
    if (mode === 'error') {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{"error":{"code":"internal","message":"soak: failing on purpose"}}');
      return;
    }
    const up = httpRequest(target + (req.url ?? '/'), { method: req.method, headers: { accept: 'application/json' }, agent }, (upRes) => {
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
    });
    up.once('error', () => res.destroy());
    up.end();
  });
  server.keepAliveTimeout = 65_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });
  const port = await listen(0);
  const dropAll = () => {
    for (const res of hanging) res.destroy();
    for (const s of sockets) s.destroy();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    async setMode(next: Mode) {
      if (next === mode) return;
      if (mode === 'refuse') await listen(port);
      // Leaving 'hang': the held requests end (their sockets are reset).
      for (const res of hanging) res.destroy();
      mode = next;
      if (next === 'refuse') {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          dropAll();
        });
      }
    },
    async close() {
      mode = 'closed';
      dropAll();
      agent.destroy();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function rssKiB(pid: number | undefined) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return { rss: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]), hwm: Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]) };
  } catch {
    return { rss: NaN, hwm: NaN };
  }
}

const MEMORY_METRICS = [
  'proxy_cache_bytes',
  'proxy_cache_entries',
  'nodejs_heap_size_used_bytes',
  'nodejs_heap_size_total_bytes',
  'nodejs_external_memory_bytes',
];

/** Unlabelled gauges from the service's /metrics. */
async function metrics(serviceUrl: string, names = MEMORY_METRICS): Promise<Record<string, number>> {
  const text = (await rawGet(`${serviceUrl}/metrics`)).body.toString('utf8');
  return Object.fromEntries(
    names.map((name) => {
      const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([\\d.e+-]+)$`, 'm').exec(text);
      return [name, m ? Number(m[1]) : NaN];
    }),
  );
}

const IDLE_AFTER_MS = 10_000;

export async function soak() {
  ensureWrk();
  ensureBuild();
  const content = await startService();
  let proxy: Awaited<ReturnType<typeof startFlakyProxy>> | undefined;
  let service: ServiceProcess | undefined;
  let sampler: NodeJS.Timeout | undefined;
  try {
    if (!content.embeddedUrl) throw new Error('the first instance did not start its embedded content API');
    proxy = await startFlakyProxy(content.embeddedUrl);
    let phase = 'start';
    const warnings: Record<string, number> = {};
    service = await startService({
      env: { UPSTREAM_URL: proxy.url, ...SERVICE_ENV },
      onLine: (line) => {
        if (!line.includes('"level":4') && !line.includes('"level":5') && !line.includes('"level":6')) return;
        try {
          const entry = JSON.parse(line) as { level: number; msg: string; kind?: string };
          const key = `${phase}|${entry.level >= 50 ? 'error' : 'warn'}: ${entry.msg}${entry.kind ? ` (${entry.kind})` : ''}`;
          warnings[key] = (warnings[key] ?? 0) + 1;
        } catch {
          // not a log line
        }
      },
    });
    const pid = service.child.pid;

    // Every URL must answer 200 while the upstream is healthy; the cache is warm after this.
    const urls = [...pageUrls(), ...API_URLS];
    const bad: string[] = [];
    for (const u of urls) {
      const r = await rawGet(service.url + u, BROWSER_HEADERS);
      if (r.status !== 200) bad.push(`${u} → ${r.status}`);
    }
    if (bad.length) throw new Error(`not every soak URL answers 200: ${bad.join(', ')}`);
    const lua = tempPath('soak.lua');
    writeFileSync(lua, luaScript(urls));

    const memory: Memory = { start: rssKiB(pid), peak: 0, samples: [], metricsStart: await metrics(service.url) };
    const t0 = Date.now();
    sampler = setInterval(() => {
      const m = rssKiB(pid);
      memory.peak = Math.max(memory.peak, m.rss || 0);
      memory.samples.push([Math.round((Date.now() - t0) / 1000), m.rss]);
    }, 1_000);

    const results: PhaseResult[] = [];
    for (const p of PHASES) {
      phase = p.name;
      await proxy.setMode(p.mode);
      const rssBefore = rssKiB(pid).rss;
      const r = await wrkAsync(service.url, {
        connections: CONNECTIONS,
        seconds: p.seconds,
        headers: BROWSER_HEADERS,
        script: lua,
        timeout: '10s',
      });
      const statuses: Record<string, number> = Object.fromEntries(
        [...r.out.matchAll(/^status (\d+) (\d+)$/gm)].map((m) => [m[1] ?? '', Number(m[2])]),
      );
      const errors = /^errors (.*)$/m.exec(r.out)?.[1] ?? '';
      results.push({
        ...p,
        ...r,
        statuses,
        errors,
        rssBefore,
        rssAfter: rssKiB(pid).rss,
        heapAfter: (await metrics(service.url)).nodejs_heap_size_used_bytes ?? NaN,
      });
    }
    await proxy.setMode('healthy');
    clearInterval(sampler);
    memory.end = rssKiB(pid);
    memory.metricsEnd = await metrics(service.url);
    // Idle: V8 shrinks the heap when allocation stops; what stays is held.
    await new Promise((r) => setTimeout(r, IDLE_AFTER_MS));
    memory.idle = rssKiB(pid);
    memory.metricsIdle = await metrics(service.url);
    return report(results, memory as Required<Memory>, warnings, urls);
  } finally {
    clearInterval(sampler);
    await service?.stop();
    await proxy?.close();
    await content.stop();
  }
}

const mib = (kib: number) => fmt(kib / 1024, 1);
const mb = (bytes: number | undefined) => fmt((bytes ?? NaN) / 1024 / 1024, 1);

type Rss = ReturnType<typeof rssKiB>;

interface Memory {
  start: Rss;
  peak: number;
  samples: [number, number][];
  metricsStart: Record<string, number>;
  end?: Rss;
  metricsEnd?: Record<string, number>;
  idle?: Rss;
  metricsIdle?: Record<string, number>;
}

type PhaseResult = (typeof PHASES)[number] &
  WrkFigures & { statuses: Record<string, number>; errors: string; rssBefore: number; rssAfter: number; heapAfter: number };

function report(results: PhaseResult[], memory: Required<Memory>, warnings: Record<string, number>, urls: string[]) {
  const rows = results.map((r) => {
    const served = Object.values(r.statuses).reduce((a, b) => a + b, 0);
    const ok = r.statuses['200'] ?? 0;
    return [
      r.name,
      `${r.seconds} s`,
      String(served),
      fmt(r.rps),
      `${fmt((ok / Math.max(served, 1)) * 100, 1)} %`,
      Object.entries(r.statuses)
        .map(([s, n]) => `${n}× ${s}`)
        .join(', ') || '—',
      r.errors.replace(/\b(connect|read|write|status|timeout) 0 ?/g, '').trim() || 'none',
      fmt(r.p50, 1),
      fmt(r.p99, 1),
      `${mib(r.rssBefore)} → ${mib(r.rssAfter)}`,
      mb(r.heapAfter),
    ];
  });
  const total = results.reduce((a, r) => a + Object.values(r.statuses).reduce((x, y) => x + y, 0), 0);
  const byStatus: Record<string, number> = {};
  for (const r of results) for (const [s, n] of Object.entries(r.statuses)) byStatus[s] = (byStatus[s] ?? 0) + n;
  const growthKiB = memory.end.rss - memory.start.rss;
  const memRow = (m: Record<string, number>) => [
    mb(m.nodejs_heap_size_used_bytes),
    mb(m.nodejs_heap_size_total_bytes),
    mb(m.nodejs_external_memory_bytes),
    `${fmt((m.proxy_cache_bytes ?? NaN) / 1024, 1)} (${m.proxy_cache_entries})`,
  ];
  const beyond = growthKiB * 1024 > CACHE_MAX_BYTES;
  const warnRows = Object.entries(warnings).map(([k, n]) => {
    const [phase, what] = k.split('|');
    return [phase, what, String(n)];
  });
  const markdown = `## Soak: mixed traffic while the content API fails and recovers

Command: \`${commandLine()}${CYCLES > 1 ? ` --cycles=${CYCLES}` : ''}\` (${stamp()}); not part of \`npm run bench\` (it alone takes about ${fmt(40 + CYCLES * 45)} s).
\`wrk -t1 -c${CONNECTIONS} --timeout 10s\` with a Lua script rotating over ${urls.length} URLs (the 20 page routes and the 21 API
paths, browser headers), one wrk run per phase. The measured service reads the content API through a proxy in
\`bench/soak.js\` (in front of the embedded content API of a first service instance), with
${Object.entries(SERVICE_ENV)
  .map(([k, v]) => `\`${k}=${v}\``)
  .join(', ')}, other settings default (\`UPSTREAM_TIMEOUT_MS=3000\`, \`CACHE_MAX_BYTES\`
64 MiB, \`LOG_LEVEL=info\`). Every URL answered 200 before the soak (cache warm). RSS is VmRSS of the service process.

${table(['phase', 'length', 'answers', 'req/s', '200s', 'statuses', 'socket errors', 'p50 ms', 'p99 ms', 'RSS MiB', 'heap used after, MiB'], rows)}

All phases: ${total} answers (${Object.entries(byStatus)
    .map(([s, n]) => `${n}× ${s}`)
    .join(', ')}).

${table(
  ['memory', 'RSS MiB', 'V8 heap used MiB', 'V8 heap total MiB', 'external MiB', 'proxy cache KiB (entries)'],
  [
    ['start (cache warm)', mib(memory.start.rss), ...memRow(memory.metricsStart)],
    ['end of the soak', mib(memory.end.rss), ...memRow(memory.metricsEnd)],
    [`after ${IDLE_AFTER_MS / 1000} s idle`, mib(memory.idle.rss), ...memRow(memory.metricsIdle)],
  ],
)}

RSS grew by ${mib(growthKiB)} MiB over the soak (peak ${mib(memory.peak)} MiB sampled each second, VmHWM ${mib(memory.end.hwm)} MiB), and is
${mib(memory.idle.rss - memory.start.rss)} MiB above the start after ${IDLE_AFTER_MS / 1000} s idle. Growth beyond the proxy cache's bound (\`CACHE_MAX_BYTES\`, 64 MiB):
**${beyond ? 'yes' : 'no'}**; the caches themselves held little (the soak uses ${urls.length} URLs).

Warnings and errors the service logged, by phase:

${warnRows.length ? table(['phase', 'message', 'count'], warnRows) : '(none)'}
`;
  return { results, memory, warnings, markdown };
}

export async function runSoak() {
  const r = await soak();
  writeSection(CYCLES > 1 ? 'soak-cycles' : 'soak', r.markdown);
  return r;
}

if (isMain(import.meta.url)) console.log((await runSoak()).markdown);
