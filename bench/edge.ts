// Publishing and the edge (`npm run bench -- edge`, about 90 s): how long a publish takes to be seen
// everywhere, and what Varnish in front gives on warm pages. Two service instances share a real
// redis-server; a real varnishd with the shipped VCL (deploy/varnish/default.vcl) stands in front
// of the first. Each publish edits a news item in the embedded content API and sends the signed
// publish event to the second instance; the clock stops when both instances and the edge all
// serve the change on its API path, its detail page and its list. Everything on loopback, started
// here and stopped by this script.
import { spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { isMain } from './harness/args.js';
import { TABLE_HEAD, fmt, quantile, row, stamp } from './harness/figures.js';
import { BROWSER_HEADERS, CHROME_UA, PAGES, rawGet } from './harness/http.js';
import { ensureBuild, ensureWrk, freePort } from './harness/processes.js';
import { commandLine, writeSection } from './harness/results.js';
import { startRedis, startService, type ServiceProcess } from './harness/service.js';
import { compare } from './harness/wrk.js';

const PUBLISHES = 100;
const SECRET = 'bench-edge-webhook-secret';
const TOKEN = 'bench-edge-purge-token';

async function startVarnish(backendPort: number, port: number) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-varnish-'));
  chmodSync(dir, 0o755);
  const vcl = readFileSync('deploy/varnish/default.vcl', 'utf8').replace('.port = "3000";', `.port = "${backendPort}";`);
  writeFileSync(join(dir, 'site.vcl'), vcl);
  const work = join(dir, 'work');
  const child = spawn(
    'varnishd',
    ['-F', '-n', work, '-a', `127.0.0.1:${port}`, '-T', 'none', '-f', join(dir, 'site.vcl'), '-s', 'malloc,256m'],
    {
      stdio: 'ignore',
    },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    const ok = await rawGet(`${url}/healthz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  // The probe must find the backend healthy before a purged copy is never served.
  await new Promise((r) => setTimeout(r, 2_500));
  return {
    url,
    /** Varnish's own counters (varnishstat). */
    counters() {
      const out = spawnSync(
        'varnishstat',
        ['-n', work, '-1', '-f', 'MAIN.cache_hit', '-f', 'MAIN.cache_miss', '-f', 'MAIN.cache_hit_grace'],
        {
          encoding: 'utf8',
        },
      ).stdout;
      const value = (name: string) => Number(new RegExp(`${name}\\s+(\\d+)`).exec(out)?.[1] ?? NaN);
      return { hit: value('MAIN.cache_hit'), miss: value('MAIN.cache_miss') };
    },
    async stop() {
      child.kill('SIGTERM');
      await Promise.race([once(child, 'exit'), new Promise((r) => setTimeout(r, 5_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function signed(body: string) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = `sha256=${createHmac('sha256', SECRET).update(`${timestamp}.`).update(body).digest('hex')}`;
  return { 'content-type': 'application/json', 'x-webhook-timestamp': timestamp, 'x-webhook-signature': signature };
}

type Varnish = Awaited<ReturnType<typeof startVarnish>>;

async function publishToVisible(content: string, a: ServiceProcess, b: ServiceProcess, edge: Varnish) {
  const agent = new Agent({ connections: 32 });
  // fetch() takes compressed answers, as a browser does, and decompresses them.
  const text = async (url: string) => (await fetch(url, { headers: { 'user-agent': CHROME_UA } })).text();
  const list = (JSON.parse(await text(`${a.url}/api/news?categoryId=19&pageSize=9`)) as { data: { items: { id: number }[] } }).data.items;
  const listPath = PAGES['news list'];
  const latencies: number[] = [];
  const webhookMs: number[] = [];
  const byPlace: Record<string, number[]> = { 'instance a': [], 'instance b (told)': [], edge: [] };
  for (let i = 0; i < PUBLISHES; i++) {
    const item = list[i % list.length]!;
    const paths = [`/api/news/${item.id}`, `/gnyy/detail?id=${item.id}`, listPath];
    const places: [string, string][] = [
      ['instance a', a.url],
      ['instance b (told)', b.url],
      ['edge', edge.url],
    ];
    // Warm: every cache holds the current title.
    for (const [, base] of places) for (const path of paths) await text(base + path);
    const title = `发布测试 ${i} ${Date.now()}`;
    const edit = await request(`${content}/admin/items/news/${item.id}`, {
      method: 'POST',
      dispatcher: agent,
      headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
    });
    await edit.body.dump();
    const body = JSON.stringify({ id: `bench-${i}-${Date.now()}`, event: 'update', items: [{ type: 'news', id: item.id }] });
    const started = performance.now();
    const told = await request(`${b.url}/admin/webhook`, { method: 'POST', dispatcher: agent, headers: signed(body), body });
    await told.body.dump();
    if (told.statusCode !== 200) throw new Error(`the webhook answered ${told.statusCode}`);
    webhookMs.push(performance.now() - started);
    const seen = await Promise.all(
      places.flatMap(([place, base]) =>
        paths.map(async (path) => {
          for (;;) {
            if ((await text(base + path)).includes(title)) return [place, performance.now() - started] as const;
            if (performance.now() - started > 10_000) throw new Error(`${base}${path} did not show the change within 10 s`);
          }
        }),
      ),
    );
    latencies.push(Math.max(...seen.map(([, ms]) => ms)));
    for (const [place] of places) byPlace[place]!.push(Math.max(...seen.filter(([p]) => p === place).map(([, ms]) => ms)));
  }
  await agent.close();
  return { latencies, webhookMs, byPlace };
}

async function edgeThroughput(a: ServiceProcess, edge: Varnish) {
  const rows: string[] = [];
  const hitRates: [string, number, number][] = [];
  for (const [label, path] of Object.entries(PAGES)) {
    for (let i = 0; i < 3; i++) {
      await rawGet(a.url + path, BROWSER_HEADERS);
      await rawGet(edge.url + path, BROWSER_HEADERS);
    }
    const before = edge.counters();
    const r = compare({ edge: edge.url + path, service: a.url + path }, { rounds: 3, seconds: 3, headers: BROWSER_HEADERS });
    const after = edge.counters();
    const hits = after.hit - before.hit;
    const misses = after.miss - before.miss;
    hitRates.push([label, hits, misses]);
    rows.push(row(`${label}: through Varnish`, r.edge, r.service));
  }
  return { rows, hitRates };
}

export async function benchEdge() {
  ensureWrk();
  ensureBuild();
  const contentPort = await freePort();
  // The embedded content API, editable; its own service's purges do not matter here.
  const source = await startService({ env: { EMBEDDED_API_PORT: String(contentPort), WEBHOOK_SECRET: SECRET } });
  const redis = await startRedis();
  const edgePort = await freePort();
  const env = {
    UPSTREAM_URL: source.embeddedUrl ?? '',
    REDIS_URL: redis.url,
    WEBHOOK_SECRET: SECRET,
    PURGE_TOKEN: TOKEN,
    EDGE_PURGE_URLS: `http://127.0.0.1:${edgePort}/`,
    TRUSTED_PROXIES: '127.0.0.1',
  };
  const a = await startService({ env });
  const b = await startService({ env });
  const edge = await startVarnish(Number(new URL(a.url).port), edgePort);
  let published: Awaited<ReturnType<typeof publishToVisible>>;
  let throughput: Awaited<ReturnType<typeof edgeThroughput>>;
  try {
    await new Promise((r) => setTimeout(r, 300));
    published = await publishToVisible(source.embeddedUrl ?? '', a, b, edge);
    throughput = await edgeThroughput(a, edge);
  } finally {
    await edge.stop();
    await a.stop();
    await b.stop();
    await redis.stop();
    await source.stop();
  }
  const q = (list: number[], p: number) => fmt(quantile(list, p), 1);
  const placeRows = Object.entries(published.byPlace).map(
    ([place, list]) => `| ${place} | ${q(list, 0.5)} | ${q(list, 0.99)} | ${q(list, 1)} |`,
  );
  const markdown = `## Publishing and the edge

Command: \`${commandLine()}\` (${stamp()}).

**Publish to visible.** ${PUBLISHES} publishes, one after another. Each edits a news item in the embedded content
API, then sends the signed publish event to instance b; the clock runs from sending the event until both instances
and Varnish (in front of instance a) serve the new title on the item's API path, its detail page and the news list,
each polled without pause. The two instances share a real redis-server; the event reaches instance a through the
Redis stream, and Varnish through each instance's purge.

| | p50 ms | p99 ms | max ms |
|---|---|---|---|
| everywhere (the slowest of the 9 addresses) | ${q(published.latencies, 0.5)} | ${q(published.latencies, 0.99)} | ${q(published.latencies, 1)} |
| the webhook's answer (Redis, its own caches, the edge, the stream) | ${q(published.webhookMs, 0.5)} | ${q(published.webhookMs, 0.99)} | ${q(published.webhookMs, 1)} |
${placeRows.join('\n')}

**Warm pages through Varnish.** \`wrk -t1 -c50\` with a desktop Chrome's headers, 3 alternating rounds of 3 s per
target, medians: each page through Varnish, with the same page from the service alone (instance a, its page cache
warm) as the baseline. Varnish's own counters during the runs:
${throughput.hitRates.map(([label, hits, misses]) => `${label} ${hits} hits and ${misses} misses (hit rate ${fmt((100 * hits) / Math.max(1, hits + misses), 2)} %)`).join('; ')}.

${TABLE_HEAD}
${throughput.rows.join('\n')}
`;
  return { markdown, p50: quantile(published.latencies, 0.5), p99: quantile(published.latencies, 0.99) };
}

export async function runEdge() {
  const r = await benchEdge();
  writeSection('edge', r.markdown);
  return r;
}

if (isMain(import.meta.url)) console.log((await runEdge()).markdown);
