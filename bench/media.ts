// The media endpoint (/_media, docs/decisions/023): the encoder settings against each other on a
// camera-sized photograph; a warm variant against raw node:http sending the same bytes; new
// variants per second per core; the service's memory during a burst of 1,000 new images; the
// decompression bomb refused. The originals come from a node:http origin in this process,
// made with sharp when the benchmark starts. Loopback only.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import sharp from 'sharp';
import { Agent, request } from 'undici';
import { isMain } from './harness/args.js';
import { TABLE_HEAD, fmt, fmtRatio, median, ratio, row, stamp, table, verdict } from './harness/figures.js';
import { rawBaseline, rawGet } from './harness/http.js';
import { ensureBuild, ensureWrk, rssMiB } from './harness/processes.js';
import { commandLine, writeSection } from './harness/results.js';
import { startService } from './harness/service.js';
import { compare, type Compared } from './harness/wrk.js';
// The test originals, made with sharp (Node runs the TypeScript as it is).
import { bombPng, cameraJpeg, versionOf as version } from '../test/support/media-fixtures.js';

const ROUNDS = 3;
const SECONDS = 4;
const TARGET = { warm: 0.5, bombMs: 100 };
const CACHE_MAX_BYTES = 64 * 1024 * 1024;
/** The memory the README asks for a container: the burst must stay well under it. */
const RSS_BOUND_MIB = 512;
const BURST = 1_000;
const NEW_ORIGINALS = 6;

const ref = (url: string) => Buffer.from(url).toString('base64url');

/** The same photograph with a comment segment naming `n`: other bytes, so a new original to the service. */
const variantOf = (jpeg: Buffer, n: number) =>
  Buffer.concat([
    jpeg.subarray(0, 2),
    Buffer.from([0xff, 0xfe, 0x00, 0x12]),
    Buffer.from(`orig-${String(n).padStart(11, '0')}`),
    jpeg.subarray(2),
  ]);

/** The origin: `/camera.jpg`, `/new/<n>.jpg` (each other bytes) and `/bomb/<n>.png`. */
async function startOrigin(camera: Buffer, bomb: Buffer) {
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    const n = /^\/(?:new|burst)\/(\d+)\.jpg$/.exec(path)?.[1];
    const body =
      path === '/camera.jpg' ? camera : n !== undefined ? variantOf(camera, Number(n)) : path.startsWith('/bomb/') ? bomb : undefined;
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }).end(body);
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stop: () => new Promise((r) => server.close(r)) };
}

/** Peak signal-to-noise ratio of an encoded image against the lossless reference pixels, in dB. */
async function psnr(encoded: Buffer, reference: Buffer) {
  const pixels = await sharp(encoded).removeAlpha().raw().toBuffer();
  let sum = 0;
  for (let i = 0; i < pixels.length; i++) sum += (pixels[i]! - reference[i]!) ** 2;
  return 10 * Math.log10((255 * 255) / (sum / pixels.length));
}

/** Encoder settings on one photograph at 1080 px: size, time and fidelity. */
async function encoderTable(camera: Buffer) {
  sharp.concurrency(1);
  const resized = () => sharp(camera).autoOrient().resize({ width: 1080 });
  const reference = await resized().removeAlpha().raw().toBuffer();
  const settings: ['avif' | 'webp' | 'jpeg', Record<string, number | boolean>][] = [
    ['avif', { quality: 50, effort: 2 }],
    ['avif', { quality: 50, effort: 4 }],
    ['avif', { quality: 60, effort: 2 }],
    ['webp', { quality: 75, effort: 4 }],
    ['webp', { quality: 75, effort: 6 }],
    ['webp', { quality: 82, effort: 4 }],
    ['jpeg', { quality: 78, mozjpeg: true }],
    ['jpeg', { quality: 85, mozjpeg: true }],
  ];
  const rows: string[][] = [];
  for (const [format, options] of settings) {
    const times: number[] = [];
    let out = Buffer.alloc(0);
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      out = await resized()[format](options).toBuffer();
      times.push(performance.now() - started);
    }
    rows.push([
      `${format} ${JSON.stringify(options)}`,
      `${fmt(out.length / 1024, 1)} KB`,
      `${fmt(median(times))} ms`,
      `${fmt(await psnr(out, reference), 2)} dB`,
    ]);
  }
  return table(['encoder (1080 px from 4000 × 3000, one thread)', 'size', 'time (median of 3)', 'PSNR'], rows);
}

async function metricValue(base: string, series: string) {
  const text = (await rawGet(`${base}/metrics`)).body.toString();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}

export async function benchMedia() {
  ensureWrk();
  ensureBuild();
  const camera = await cameraJpeg();
  const encoders = await encoderTable(camera);
  const origin = await startOrigin(camera, bombPng());
  const cores = availableParallelism();
  const service = await startService({ env: { MEDIA_ORIGINS: origin.url, MEDIA_CACHE_MAX_BYTES: String(CACHE_MAX_BYTES) } });
  const agent = new Agent({ connections: 256 });
  const rssStart = rssMiB(service.child.pid);
  try {
    const ask = async (path: string, accept = 'image/webp') => {
      const started = performance.now();
      const res = await request(service.url + path, { headers: { accept }, dispatcher: agent });
      await res.body.arrayBuffer();
      return { status: res.statusCode, ms: performance.now() - started };
    };

    // A warm variant against a raw node:http server sending the same bytes and headers.
    const warmPath = `/_media/1080/${version(camera)}/${ref(`${origin.url}/camera.jpg`)}`;
    await rawGet(service.url + warmPath, { accept: 'image/webp' });
    const answer = await rawGet(service.url + warmPath, { accept: 'image/webp' });
    const baseline = await rawBaseline('media-warm', { answer });
    let warm: Record<'service' | 'baseline', Compared>;
    try {
      warm = compare(
        { service: service.url + warmPath, baseline: baseline.url + warmPath },
        { rounds: ROUNDS, seconds: SECONDS, headers: { Accept: 'image/webp' } },
      );
    } finally {
      await baseline.stop();
    }
    const warmRatio = ratio(warm.service, warm.baseline);
    const warmVerdict = verdict(warmRatio, TARGET.warm);

    // New variants: each original fetched, looked at and made into 1080 px AVIF and WebP, as many at once as there are transform slots.
    const jobs: [string, string][] = [];
    for (let n = 0; n < NEW_ORIGINALS; n++) {
      for (const accept of ['image/avif', 'image/webp']) jobs.push([`/_media/1080/0/${ref(`${origin.url}/new/${n}.jpg`)}`, accept]);
    }
    const started = performance.now();
    const statuses: number[] = [];
    for (let i = 0; i < jobs.length; i += cores) {
      statuses.push(...(await Promise.all(jobs.slice(i, i + cores).map(([path, accept]) => ask(path, accept)))).map((r) => r.status));
    }
    const newSeconds = (performance.now() - started) / 1000;
    const rssAfterNew = rssMiB(service.child.pid);
    const perCore = jobs.length / newSeconds / cores;
    const transformMs = { avif: NaN, webp: NaN };
    for (const format of ['avif', 'webp'] as const) {
      transformMs[format] =
        ((await metricValue(service.url, `media_transform_duration_seconds_sum{format="${format}"}`)) /
          (await metricValue(service.url, `media_transform_duration_seconds_count{format="${format}"}`))) *
        1000;
    }

    // A burst of 1,000 new images at once, the service's memory sampled meanwhile.
    const rssBefore = rssMiB(service.child.pid);
    let rssMax = rssBefore;
    const sampler = setInterval(() => (rssMax = Math.max(rssMax, rssMiB(service.child.pid))), 25);
    const burstStarted = performance.now();
    const burst = await Promise.all(
      Array.from({ length: BURST }, (_, n) => ask(`/_media/640/0/${ref(`${origin.url}/burst/${n}.jpg`)}`, 'image/avif')),
    );
    const burstSeconds = (performance.now() - burstStarted) / 1000;
    clearInterval(sampler);
    const count = (status: number) => burst.filter((r) => r.status === status).length;
    const cacheBytes =
      (await metricValue(service.url, 'media_cache_bytes{store="variants"}')) +
      (await metricValue(service.url, 'media_cache_bytes{store="originals"}'));
    const ok = await ask(warmPath);

    // The bomb, twenty times (each a new address, so each is fetched and refused afresh).
    const bombRssBefore = rssMiB(service.child.pid);
    const bombs: { status: number; ms: number }[] = [];
    for (let n = 0; n < 20; n++) bombs.push(await ask(`/_media/640/0/${ref(`${origin.url}/bomb/${n}.png`)}`));
    const bombRssAfter = rssMiB(service.child.pid);
    const bombMs = bombs.map((b) => b.ms);

    const met = {
      warm: warmVerdict === 'met',
      memory: rssMax < RSS_BOUND_MIB && cacheBytes <= CACHE_MAX_BYTES,
      bomb: bombs.every((b) => b.status === 502) && Math.max(...bombMs) < TARGET.bombMs,
    };
    const markdown = `## Media endpoint (/_media)

Command: \`${commandLine()}\` (${stamp()}).
The service runs from the production build with its defaults (\`MEDIA_TRANSFORMS\` = ${cores} cores,
\`MEDIA_CACHE_MAX_BYTES\` = ${CACHE_MAX_BYTES / 1024 / 1024} MiB); the originals come from a node:http origin in the
benchmark's process: a 4000 × 3000 JPEG (\`cameraJpeg\` in test/support/media-fixtures.ts: quality 90, ${fmt(camera.length / 1024 / 1024, 1)} MB, with EXIF and GPS) and copies
of it that differ by a comment segment, so that each is a new original to the service.

**Encoder settings**, measured in the benchmark's process on the photograph resized to 1080 px (the settings
the service uses are in \`server/media/transform.ts\`: AVIF quality 50 effort 2, WebP quality 75 effort 4,
JPEG quality 78 with mozjpeg):

${encoders}

**A warm variant** (\`GET ${warmPath.slice(0, 40)}…\`, 1080 px WebP, ${fmt(answer.body.length / 1024, 1)} KB, from memory) against a bare
\`node:http\` server writing the same status, headers and body; \`wrk -t1 -c50\`, ${ROUNDS} alternating rounds of ${SECONDS} s, medians:

${TABLE_HEAD}
${row('warm variant', warm.service, warm.baseline)}

**New variants**: ${jobs.length} variants (1080 px AVIF and WebP of ${NEW_ORIGINALS} new originals), ${cores} at a time, each
original fetched, looked at (size, colour) and transformed: ${fmt(newSeconds, 2)} s, **${fmt(perCore, 2)} new variants per second per
core** (all ${statuses.every((s) => s === 200) ? '200' : statuses.join(', ')}). The transforms alone took ${fmt(transformMs.avif)} ms (AVIF) and ${fmt(transformMs.webp)} ms (WebP) each.

**A burst of ${BURST} new images at once** (${BURST} distinct originals, 640 px AVIF, up to 256 connections): answered in
${fmt(burstSeconds, 1)} s, ${count(200)} made (200) and ${count(503)} refused at once with 503 \`busy\`${BURST - count(200) - count(503) ? `, ${BURST - count(200) - count(503)} other` : ''};
the service's resident memory (${fmt(rssStart)} MiB when started, ${fmt(rssAfterNew)} MiB after the new variants above) went from
${fmt(rssBefore)} MiB to at most **${fmt(rssMax)} MiB** (bound ${RSS_BOUND_MIB} MiB), the
media caches held ${fmt(cacheBytes / 1024 / 1024, 1)} MiB (bound ${CACHE_MAX_BYTES / 1024 / 1024} MiB), and the warm variant was still served (${ok.status}).

**The bomb** (a 100 KB PNG declaring 30,000 × 30,000 px), 20 new addresses in turn: all ${bombs.every((b) => b.status === 502) ? 'refused 502' : bombs.map((b) => b.status).join(', ')}, in
${fmt(median(bombMs), 1)} ms at the median and ${fmt(Math.max(...bombMs), 1)} ms at most (target < ${TARGET.bombMs} ms); resident memory
${fmt(bombRssBefore)} MiB before and ${fmt(bombRssAfter)} MiB after.

Targets: warm variant ≥ ${TARGET.warm} × raw node:http in every round — **${warmVerdict}** (${fmtRatio(warmRatio)});
memory during the burst under its bounds — **${met.memory ? 'met' : 'not met'}**; the bomb refused in < ${TARGET.bombMs} ms —
**${met.bomb ? 'met' : 'not met'}**.
`;
    return { warmRatio, perCore, rssMax, bombMaxMs: Math.max(...bombMs), met, markdown };
  } finally {
    await agent.close();
    await service.stop();
    await origin.stop();
  }
}

export async function runMedia() {
  const result = await benchMedia();
  writeSection('media', result.markdown);
  return result;
}

if (isMain(import.meta.url)) console.log((await runMedia()).markdown);
