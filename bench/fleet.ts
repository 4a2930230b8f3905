// The fleet (`npm run bench -- fleet`, about 80 s): how many upstream calls one key costs when 1, 2
// and 3 instances share Redis and all miss it at once (and, for contrast, when they do not
// share), and two workers sharing their primary's tier; and what a miss costs through that tier
// against one worker alone (what two workers give on hits: bench/side-by-side.ts). A redis-server (Debian's) and every
// service run on loopback, each started here and stopped by this script.
import { writeFileSync } from 'node:fs';
import { Agent, Pool, request } from 'undici';
import { run } from './cold-miss.js';
import { isMain } from './harness/args.js';
import { fmt, quantile, stamp, table } from './harness/figures.js';
import { rawGet } from './harness/http.js';
import { ensureBuild, startHelper, tempPath } from './harness/processes.js';
import { commandLine, writeSection } from './harness/results.js';
import { countingUpstream, startRedis, startService, type ServiceProcess } from './harness/service.js';

const CONCURRENT = 300;
const KEYS = 5;
const UPSTREAM_DELAY_MS = 50;

async function callsPerKey(
  source: ServiceProcess,
  redisUrl: string | undefined,
  instances: number,
  round: number,
  env: Record<string, string> = {},
) {
  const upstream = await countingUpstream(source.embeddedUrl ?? '', UPSTREAM_DELAY_MS);
  const services: ServiceProcess[] = [];
  try {
    for (let i = 0; i < instances; i++) {
      services.push(await startService({ env: { UPSTREAM_URL: upstream.url, ...(redisUrl ? { REDIS_URL: redisUrl } : {}), ...env } }));
    }
    // Each instance connected to Redis before the misses.
    await new Promise((r) => setTimeout(r, 300));
    const agent = new Agent({ connections: CONCURRENT });
    const counts: number[] = [];
    let failed = 0;
    for (let k = 0; k < KEYS; k++) {
      // A key no run has asked for before: its own page number.
      const page = 100 + round * 10 + k;
      const path = `/api/news?categoryId=19&page=${page}`;
      const answers = await Promise.all(
        Array.from({ length: CONCURRENT }, async (_, i) => {
          const res = await request(services[i % instances]!.url + path, { dispatcher: agent });
          await res.body.arrayBuffer();
          return res.statusCode;
        }),
      );
      failed += answers.filter((s) => s !== 200).length;
      counts.push(upstream.calls.get(`/api/news?categoryId=19&page=${page}&pageSize=9`) ?? 0);
    }
    await agent.close();
    return { counts, failed };
  } finally {
    await Promise.all(services.map((s) => s.stop()));
    await upstream.stop();
  }
}

const MISS_DELAY_MS = 20;

/**
 * A miss through the machine's tier (two workers, no Redis: the worker asks its primary, takes
 * the key's lock there, calls the content API and stores the answer back) against a miss in one
 * worker alone, on an upstream that answers after a fixed 20 ms: every request a new key.
 */
async function missThroughTheMachine(source: ServiceProcess) {
  const body = (await rawGet(`${source.embeddedUrl ?? ''}/api/news?page=1&pageSize=9`, { 'accept-encoding': 'identity' })).body;
  const file = tempPath('machine-miss.json');
  writeFileSync(file, JSON.stringify({ '/api/news': body.toString('base64') }));
  const upstream = await startHelper('bench/slow-upstream.ts', [file, MISS_DELAY_MS, 0]);
  const services = {
    'one worker (WORKERS=1)': await startService({ env: { UPSTREAM_URL: upstream.url, WORKERS: '1' } }),
    'two workers sharing their primary’s tier (WORKERS=2)': await startService({ env: { UPSTREAM_URL: upstream.url, WORKERS: '2' } }),
  };
  const pools = Object.fromEntries(Object.entries(services).map(([name, s]) => [name, new Pool(s.url, { connections: 4 })]));
  const latencies = new Map<string, number[]>(Object.keys(services).map((name) => [name, []]));
  try {
    for (const pool of Object.values(pools)) await run(pool, 100, (i) => `/api/news?page=${i + 1}&pageSize=50`, {}, 4);
    let size = 10;
    for (let round = 0; round < 3; round++) {
      for (const [name, pool] of Object.entries(pools)) {
        const pageSize = size++;
        const r = await run(pool, 200, (i) => `/api/news?page=${i + 1}&pageSize=${pageSize}`, {}, 1);
        latencies.get(name)?.push(...r.latencies);
      }
    }
  } finally {
    await Promise.all(Object.values(pools).map((p) => p.close()));
    await Promise.all(Object.values(services).map((s) => s.stop()));
    await upstream.stop();
  }
  const [alone = '', shared = ''] = Object.keys(services);
  const of = (name: string) => latencies.get(name) ?? [];
  const p50 = (name: string) => quantile(of(name), 0.5);
  const p99 = (name: string) => quantile(of(name), 0.99);
  return {
    rows: Object.keys(services).map((name) => [name, String(of(name).length), fmt(p50(name), 2), fmt(p99(name), 2)]),
    added: { p50: p50(shared) - p50(alone), p99: p99(shared) - p99(alone) },
  };
}

export async function benchFleet() {
  ensureBuild();
  const source = await startService();
  const redis = await startRedis();
  type Calls = Awaited<ReturnType<typeof callsPerKey>>;
  const shared: [number, Calls][] = [];
  const alone: [number, Calls][] = [];
  let machine: Calls;
  let miss: Awaited<ReturnType<typeof missThroughTheMachine>>;
  try {
    let round = 0;
    for (const n of [1, 2, 3]) {
      shared.push([n, await callsPerKey(source, redis.url, n, round++)]);
      alone.push([n, await callsPerKey(source, undefined, n, round++)]);
    }
    machine = await callsPerKey(source, undefined, 1, round++, { WORKERS: '2' });
    miss = await missThroughTheMachine(source);
  } finally {
    await redis.stop();
    await source.stop();
  }
  const describe = ({ counts, failed }: Calls) =>
    `${counts.join(', ')} (mean ${fmt(counts.reduce((a, b) => a + b, 0) / counts.length, 1)})${failed ? `; ${failed} failed` : ''}`;
  const callsTable = table(
    ['instances', 'sharing Redis: upstream calls per key', 'each alone: upstream calls per key'],
    shared.map(([n, r], i) => [String(n), describe(r), describe(alone[i]![1])]),
  );
  const markdown = `## The fleet: upstream calls per key, and workers

Command: \`${commandLine()}\` (${stamp()}).

**Upstream calls per key.** ${CONCURRENT} concurrent requests for one key no one has asked for before, spread
evenly over the instances, for each of ${KEYS} keys; the content API answers after ${UPSTREAM_DELAY_MS} ms and counts
its calls. With \`REDIS_URL\` the instances share a real redis-server; without it each caches alone.

${callsTable}

One service with \`WORKERS=2\` and no Redis, the same ${CONCURRENT} requests per key: ${describe(machine)} upstream calls
per key (the workers share their primary's tier).

**A miss through the machine's tier.** Every request a key no one has asked for, one at a time over keep-alive
connections, on an upstream that answers after ${MISS_DELAY_MS} ms (\`bench/slow-upstream.ts\`); latency request sent →
body read, in ms, 3 alternating rounds of 200 per service.

${table(['service', 'requests', 'p50 ms', 'p99 ms'], miss.rows)}

Added by the primary's tier (the look-up with the lock, then the store, each a round trip over IPC): ${fmt(miss.added.p50, 2)} ms at
p50, ${fmt(miss.added.p99, 2)} ms at p99. A hit in a worker's own memory never asks the primary: what two workers
give on hits is \`npm run bench -- side-by-side\`'s question.

`;
  return { markdown };
}

export async function runFleet() {
  const r = await benchFleet();
  writeSection('fleet', r.markdown);
  return r;
}

if (isMain(import.meta.url)) console.log((await runFleet()).markdown);
