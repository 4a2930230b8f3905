// Memory soak (`npm run soak:memory`, two minutes a run): the mixed load of ordinary traffic
// (test/support/mixed-load.ts: pages, API paths, the home page's pictures, searches, unknown
// addresses; 20 connections) against ONE process (WORKERS=1) reading the demo content API in
// another (`node dist/server/demo-content-api.js`), as deploy/k8s/site.yaml runs it. Reports the
// resident set (VmRSS) every second and its peak, the V8 heap and each part of the memory budget
// (/metrics), per allocator asked for: `--allocators=glibc,jemalloc` runs one soak with each in
// turn (jemalloc is Debian's libjemalloc2, preloaded as the image preloads it; `arena2` is glibc
// with MALLOC_ARENA_MAX=2). `--seconds=N` sets the length, `--limit=BYTES` MEMORY_LIMIT_BYTES.
// Loopback only; every process started here is stopped here.
import { existsSync } from 'node:fs';
import { mixedLoad, type MixedLoadReport } from '../test/support/mixed-load.js';
import { benchArgs, isMain } from './harness/args.js';
import { fmt, stamp, table } from './harness/figures.js';
import { ensureBuild, freePort, rssMiB, sleep, startNode } from './harness/processes.js';
import { commandLine, writeSection } from './harness/results.js';
import { startService } from './harness/service.js';

const { values: options } = benchArgs({
  seconds: { type: 'string', default: '120' },
  /** `--answers=N`: each run ends once N answers came (within SECONDS), to compare allocators at equal work. */
  answers: { type: 'string' },
  limit: { type: 'string' },
  allocators: { type: 'string', default: 'jemalloc' },
});

/** A whole number of at least 1 from an option, or a clear error naming it. */
function count(name: string, text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}=${text}: a whole number of at least 1`);
  return n;
}

const SECONDS = count('seconds', options.seconds);
const ANSWERS = options.answers === undefined ? Infinity : count('answers', options.answers);
const LIMIT = options.limit === undefined ? undefined : String(count('limit', options.limit));
const JEMALLOC = '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2';
const ALLOCATORS: Record<string, Record<string, string>> = {
  glibc: {},
  arena2: { MALLOC_ARENA_MAX: '2' },
  // As the image runs it (Dockerfile): two arenas, freed pages given back within a second.
  jemalloc: { LD_PRELOAD: JEMALLOC, MALLOC_CONF: 'background_thread:true,narenas:2,dirty_decay_ms:1000,muzzy_decay_ms:0' },
  'jemalloc-defaults': { LD_PRELOAD: JEMALLOC },
};
/** After the load, the process is watched idle this long: what it keeps, it holds. */
const IDLE_SECONDS = 15;
/** The resident set is shown in the report at these moments (seconds from the start of the load). */
const SHOWN_EVERY_S = 10;

type Gauges = Record<string, number>;

interface Moment {
  rss: number;
  metrics: Gauges;
}

interface Run {
  allocator: string;
  load: MixedLoadReport;
  samples: { s: number; rss: number }[];
  before: Moment;
  end: Moment;
  idle: Moment;
}

/** The gauges of /metrics this report reads, by name and labels (`name{label="v"}`). */
async function gauges(url: string): Promise<Gauges> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const values: Gauges = {};
  for (const [, name, value] of text.matchAll(/^([a-z_]+(?:\{[^}]*\})?) ([-\d.e+]+)$/gm)) if (name) values[name] = Number(value);
  return values;
}

async function soakWith(allocator: string, contentUrl: string): Promise<Run> {
  const env = { UPSTREAM_URL: contentUrl, ...ALLOCATORS[allocator], ...(LIMIT ? { MEMORY_LIMIT_BYTES: LIMIT } : {}) };
  const service = await startService({ env, timeoutMs: 60_000 });
  const pid = service.child.pid;
  const moment = async (): Promise<Moment> => ({ rss: rssMiB(pid), metrics: await gauges(service.url) });
  const samples: Run['samples'] = [];
  const started = performance.now();
  const sampler = setInterval(() => samples.push({ s: (performance.now() - started) / 1000, rss: rssMiB(pid) }), 1_000);
  try {
    const before = await moment();
    const load = await mixedLoad({ base: service.url, seconds: SECONDS, answers: ANSWERS });
    const end = await moment();
    await sleep(IDLE_SECONDS * 1000);
    const idle = await moment();
    return { allocator, load, samples: samples.filter((s) => s.s <= load.seconds + 1), before, end, idle };
  } finally {
    clearInterval(sampler);
    await service.stop();
  }
}

const mib = (bytes: number | undefined) => fmt((bytes ?? NaN) / 2 ** 20, 1);
const peak = (run: Run) => Math.max(...run.samples.map((s) => s.rss));
const at = (run: Run, s: number) => run.samples.find((x) => x.s >= s)?.rss ?? NaN;

function statuses(run: Run): string {
  return Object.entries(run.load.byClass)
    .map(
      ([kind, t]) =>
        `${kind} ${Object.entries(t.statuses)
          .map(([s, n]) => `${n}×${s}`)
          .join(' ')}`,
    )
    .join('; ');
}

function summaryRow(run: Run): string[] {
  return [
    run.allocator,
    String(run.load.answers),
    fmt(run.load.answers / run.load.seconds),
    String(run.load.serverErrors + run.load.failures),
    fmt(run.load.p50Ms, 1),
    fmt(run.load.p99Ms, 1),
    fmt(run.before.rss),
    fmt(at(run, 30)),
    fmt(run.end.rss),
    `**${fmt(peak(run))}**`,
    fmt(run.idle.rss),
    mib(run.end.metrics.nodejs_heap_size_used_bytes),
    mib(run.end.metrics.nodejs_external_memory_bytes),
  ];
}

/** Each part of the memory budget at the end: bytes held / share, the process's slice, sheds. */
function partsRow(run: Run): string[] {
  const m = run.end.metrics;
  const shares = Object.entries(m)
    .filter(([k]) => k.startsWith('memory_budget_bytes{') && !k.includes('"slice"'))
    .map(([k, v]) => {
      const part = /part="([^"]+)"/.exec(k)?.[1];
      return `${part} ${mib(m[`memory_part_bytes{part="${part}"}`])}/${mib(v)}`;
    });
  return [run.allocator, shares.join(' · '), mib(m['memory_budget_bytes{part="slice"}']), String(m.memory_shed_total)];
}

function report(runs: Run[]): string {
  const moments = Array.from({ length: Math.floor(SECONDS / SHOWN_EVERY_S) + 1 }, (_, i) => i * SHOWN_EVERY_S);
  const overTime = moments.map((s) => [`${s} s`, ...runs.map((run) => fmt(at(run, s)))]);
  const args = process.argv.slice(2);
  return `## Memory soak: the mixed load against one process

Command: \`${commandLine()}${args.length ? ` ${args.join(' ')}` : ''}\` (${stamp()}). The mixed load of
test/support/mixed-load.ts (20 connections: 45 % pages across 16 routes, 20 % API paths, 15 % the home page's pictures
at /_media/, 13 % searches, 7 % unknown addresses) for ${SECONDS} s against one process (\`WORKERS=1\`, \`NODE_ENV=production\`,
the per-client limits off as in every benchmark here) reading the demo content API in another process${LIMIT ? `, \`MEMORY_LIMIT_BYTES=${LIMIT}\`` : ''}.
Resident set (VmRSS) sampled every second, in MiB; heap and external at the end of the load.

${table(['allocator', 'answers', 'req/s', '5xx or none', 'p50 ms', 'p99 ms', 'RSS start', 'at 30 s', 'at end', 'peak', `after ${IDLE_SECONDS} s idle`, 'heap used MiB', 'external MiB'], runs.map(summaryRow))}

Resident set over time (MiB):

${table(['time', ...runs.map((r) => r.allocator)], overTime)}

Each part of the memory budget at the end, bytes held / share (MiB), the process's slice of the limit (MiB), and how often
the caches were shrunk near it:

${table(['allocator', 'parts', 'slice', 'sheds'], runs.map(partsRow))}

Answers by class and status: ${runs.map((run) => `${run.allocator}: ${statuses(run)}`).join('. ')}.
`;
}

async function memorySoak(): Promise<string> {
  ensureBuild();
  const allocators = options.allocators.split(',');
  for (const a of allocators) {
    if (!(a in ALLOCATORS)) throw new Error(`unknown allocator ${a}: one of ${Object.keys(ALLOCATORS).join(', ')}`);
    if (a === 'jemalloc' && !existsSync(JEMALLOC)) throw new Error(`${JEMALLOC} is missing: apt-get install libjemalloc2`);
  }
  const port = await freePort();
  const content = await startNode(['dist/server/demo-content-api.js'], {
    env: { HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' },
    probe: () =>
      fetch(`http://127.0.0.1:${port}/api/contact-us`).then(
        (r) => r.ok,
        () => false,
      ),
  });
  try {
    const runs: Run[] = [];
    for (const allocator of allocators) runs.push(await soakWith(allocator, `http://127.0.0.1:${port}`));
    return report(runs);
  } finally {
    await content.stop();
  }
}

if (isMain(import.meta.url)) {
  const markdown = await memorySoak();
  writeSection('memory-soak', markdown);
  console.log(markdown);
}
