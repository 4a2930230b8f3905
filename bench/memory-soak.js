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
import { mixedLoad } from '../test/support/mixed-load.ts';
import {
  commandLine,
  ensureBuild,
  fmt,
  freePort,
  isMain,
  option,
  rssMiB,
  stamp,
  startNode,
  startService,
  table,
  writeSection,
} from './lib.js';

const SECONDS = Number(option('seconds') ?? 120);
/** `--answers=N`: each run ends once N answers came (within SECONDS), to compare allocators at equal work. */
const ANSWERS = Number(option('answers') ?? Infinity);
const LIMIT = option('limit');
const JEMALLOC = '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2';
const ALLOCATORS = {
  glibc: {},
  arena2: { MALLOC_ARENA_MAX: '2' },
  jemalloc: { LD_PRELOAD: JEMALLOC },
};
/** After the load, the process is watched idle this long: what it keeps, it holds. */
const IDLE_SECONDS = 15;
/** The resident set is shown in the report at these moments (seconds from the start of the load). */
const SHOWN_EVERY_S = 10;

/** The gauges of /metrics this report reads, by name and labels (`name{label="v"}`). */
async function gauges(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const values = {};
  for (const [, name, value] of text.matchAll(/^([a-z_]+(?:\{[^}]*\})?) ([-\d.e+]+)$/gm)) values[name] = Number(value);
  return values;
}

async function soakWith(allocator, contentUrl) {
  const env = { UPSTREAM_URL: contentUrl, ...ALLOCATORS[allocator], ...(LIMIT ? { MEMORY_LIMIT_BYTES: LIMIT } : {}) };
  const service = await startService({ env, timeoutMs: 60_000 });
  const pid = service.child.pid;
  const samples = [];
  const started = performance.now();
  const sampler = setInterval(() => samples.push({ s: (performance.now() - started) / 1000, rss: rssMiB(pid) }), 1_000);
  try {
    const before = { rss: rssMiB(pid), metrics: await gauges(service.url) };
    const load = await mixedLoad({ base: service.url, seconds: SECONDS, answers: ANSWERS });
    const end = { rss: rssMiB(pid), metrics: await gauges(service.url) };
    await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
    const idle = { rss: rssMiB(pid), metrics: await gauges(service.url) };
    return { allocator, load, samples: samples.filter((s) => s.s <= load.seconds + 1), before, end, idle };
  } finally {
    clearInterval(sampler);
    await service.stop();
  }
}

const mib = (bytes) => fmt(bytes / 2 ** 20, 1);

function report(runs) {
  const peak = (run) => Math.max(...run.samples.map((s) => s.rss));
  const at = (run, s) => run.samples.find((x) => x.s >= s)?.rss;
  const statuses = (run) =>
    Object.entries(run.load.byClass)
      .map(
        ([kind, t]) =>
          `${kind} ${Object.entries(t.statuses)
            .map(([s, n]) => `${n}×${s}`)
            .join(' ')}`,
      )
      .join('; ');
  const summary = runs.map((run) => [
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
  ]);
  const moments = Array.from({ length: Math.floor(SECONDS / SHOWN_EVERY_S) + 1 }, (_, i) => i * SHOWN_EVERY_S);
  const overTime = moments.map((s) => [`${s} s`, ...runs.map((run) => fmt(at(run, s)))]);
  const parts = runs.map((run) => {
    const m = run.end.metrics;
    const shares = Object.entries(m)
      .filter(([k]) => k.startsWith('memory_budget_bytes{') && !k.includes('"slice"'))
      .map(([k, v]) => {
        const part = /part="([^"]+)"/.exec(k)[1];
        return `${part} ${mib(m[`memory_part_bytes{part="${part}"}`])}/${mib(v)}`;
      });
    return [run.allocator, shares.join(' · '), mib(m['memory_budget_bytes{part="slice"}']), String(m.memory_shed_total)];
  });
  return `## Memory soak: the mixed load against one process

Command: \`${commandLine()}${process.argv.slice(2).length ? ` ${process.argv.slice(2).join(' ')}` : ''}\` (${stamp()}). The mixed load of
test/support/mixed-load.ts (20 connections: 45 % pages across 16 routes, 20 % API paths, 15 % the home page's pictures
at /_media/, 13 % searches, 7 % unknown addresses) for ${SECONDS} s against one process (\`WORKERS=1\`, \`NODE_ENV=production\`,
the per-client limits off as in every benchmark here) reading the demo content API in another process${LIMIT ? `, \`MEMORY_LIMIT_BYTES=${LIMIT}\`` : ''}.
Resident set (VmRSS) sampled every second, in MiB; heap and external at the end of the load.

${table(['allocator', 'answers', 'req/s', '5xx or none', 'p50 ms', 'p99 ms', 'RSS start', 'at 30 s', 'at end', 'peak', `after ${IDLE_SECONDS} s idle`, 'heap used MiB', 'external MiB'], summary)}

Resident set over time (MiB):

${table(['time', ...runs.map((r) => r.allocator)], overTime)}

Each part of the memory budget at the end, bytes held / share (MiB), the process's slice of the limit (MiB), and how often
the caches were shrunk near it:

${table(['allocator', 'parts', 'slice', 'sheds'], parts)}

Answers by class and status: ${runs.map((run) => `${run.allocator}: ${statuses(run)}`).join('. ')}.
`;
}

export async function memorySoak() {
  ensureBuild();
  const allocators = (option('allocators') ?? 'jemalloc').split(',');
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
    const runs = [];
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
