// `node bench/phone-images.js`: a phone's first screen with a CMS's camera-sized photos. What a
// 390 × 844 phone at 3× (Chromium, a phone's User-Agent) downloads in images before it scrolls,
// on every page, when every picture of the content is a 4000 × 3000 camera JPEG on a CMS's media
// host (the stub CMS of test/cms-content.test.ts, at camera size): every page's must stay within
// 150 KB. Each page is rendered once first, as by the first visitor, which makes its first screen's
// variants for phones ahead (docs/decisions/039); the phone's load then counts the images served
// while it waited for a transform (X-Cache MISS) among the preloaded ones. Beside it, in the same
// run, the variant a phone took for the home banner before the banner had a phone crop (the whole
// banner drawn 144vw wide: 2400 px at 3×). Loopback only; every load is bounded in time.
import { createServer } from 'node:http';
import { once } from 'node:events';
import { chromium } from 'playwright-core';
import {
  commandLine,
  ensureBuild,
  fmt,
  isMain,
  logLines,
  median,
  rawGet,
  stamp,
  startNode,
  startService,
  table,
  writeSection,
} from './lib.js';
// The camera photographs, made with sharp (Node runs the TypeScript as it is).
import { cameraJpeg } from '../test/support/media-fixtures.ts';

const TARGET_KB = 150;
const LOADS = 3;
const LOAD_TIMEOUT_MS = 45_000;
const SETTLE_MS = 4_000;
const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
  userAgent: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
};
const AVIF = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
/** Detail routes need an id from the embedded demo content. */
const PAGES = [
  '/',
  '/jtjj/qywh',
  '/jtjj/fzlc',
  '/jtjj/ryjx',
  '/jtjj/qyhcp',
  '/hzhf/tszl',
  '/hzhf/kpzs',
  '/hzhf/kpzsDetail?id=101',
  '/hzhf/zlsb',
  '/gjws/index',
  '/zjxz/index',
  '/zjxz/detail?id=1',
  '/xsyj/xsyj',
  '/xsyj/ykxs',
  '/xsyj/jyxw',
  '/xsyj/kyxw',
  '/news/index',
  '/gnyy/index',
  '/gnyy/detail?id=201',
  '/lxwm/index',
];

/**
 * The stub CMS: the embedded content API's answers, each upload it names moved to this host's
 * `/UPLOADS/…` (upper case, as editors name files), where every one is a camera photograph (four
 * scenes, so that the pictures differ).
 */
async function startCms(apiUrl, photos) {
  const server = createServer(async (req, res) => {
    const path = req.url ?? '/';
    if (path.startsWith('/UPLOADS/')) {
      const body = photos[[...path].reduce((n, c) => n + c.charCodeAt(0), 0) % photos.length];
      res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': body.length }).end(body);
      return;
    }
    const answer = await fetch(apiUrl + path);
    const text = (await answer.text()).replace(/\/uploads\/[A-Za-z0-9/_.-]+/g, (upload) => `${cms}${upload.toUpperCase()}`);
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(text);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const cms = `http://127.0.0.1:${server.address().port}`;
  return { url: cms, stop: () => new Promise((resolve) => server.close(resolve)) };
}

/** The service's count of transforms made, all formats. */
async function transforms(url) {
  const text = (await rawGet(`${url}/metrics`)).body.toString();
  return [...text.matchAll(/^media_transform_duration_seconds_count\{[^}]*\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
}

/** Until the service has made no transform for SETTLE_MS (a page's first screen made ahead), at most 60 s. */
async function settled(url) {
  const deadline = Date.now() + 60_000;
  let last = -1;
  for (;;) {
    const now = await transforms(url);
    if (now === last || Date.now() > deadline) return;
    last = now;
    await new Promise((r) => setTimeout(r, SETTLE_MS));
  }
}

/** One phone load in a fresh context, no scrolling: image bytes, and the preloaded images a transform was waited for. */
async function phoneLoad(browser, url) {
  const context = await browser.newContext(PHONE);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const requests = new Map();
    cdp.on('Network.requestWillBeSent', (e) =>
      requests.set(e.requestId, {
        url: e.request.url,
        type: e.type,
        first: ['VeryHigh', 'High'].includes(e.request.initialPriority),
        bytes: 0,
      }),
    );
    cdp.on('Network.responseReceived', (e) => {
      const r = requests.get(e.requestId);
      if (r) Object.assign(r, { type: e.type, cache: e.response.headers['x-cache'] ?? e.response.headers['X-Cache'] });
    });
    cdp.on('Network.loadingFinished', (e) => {
      const r = requests.get(e.requestId);
      if (r) r.bytes = e.encodedDataLength;
    });
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await page.goto(url, { waitUntil: 'networkidle', timeout: LOAD_TIMEOUT_MS });
    const images = [...requests.values()].filter((r) => r.type === 'Image');
    return {
      kb: images.reduce((n, r) => n + r.bytes, 0) / 1024,
      count: images.length,
      waited: images.filter((r) => r.first && r.cache === 'MISS').length,
      first: images.filter((r) => r.first).length,
    };
  } finally {
    await context.close();
  }
}

export async function benchPhoneImages() {
  ensureBuild();
  const photos = await Promise.all([1, 2, 3, 4].map((seed) => cameraJpeg(4000, 3000, seed)));
  const api = await startNode(['dist/server/demo-content-api.js'], {
    env: { HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info' },
    ready: 'content API listening',
  });
  const apiUrl = logLines(api.output).find((l) => l.msg === 'content API listening').url;
  const cms = await startCms(apiUrl, photos);
  const service = await startService({ env: { UPSTREAM_URL: cms.url, MEDIA_ORIGINS: cms.url, LOG_LEVEL: 'warn' } });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
  try {
    const rows = [];
    let home;
    for (const path of PAGES) {
      // The first visitor's render, which makes the first screen's variants for phones ahead.
      await rawGet(service.url + path, { 'user-agent': PHONE.userAgent });
      await settled(service.url);
      const loads = [];
      for (let i = 0; i < LOADS; i++) loads.push(await phoneLoad(browser, service.url + path));
      const row = {
        path,
        kb: median(loads.map((l) => l.kb)),
        count: median(loads.map((l) => l.count)),
        first: loads[0].first,
        waited: loads[0].waited,
      };
      if (path === '/') home = row;
      rows.push(row);
      console.log(
        `${path.padEnd(24)} ${fmt(row.kb, 1)} KB in ${row.count} images; first screen ${row.first}, waited for a transform ${row.waited}`,
      );
    }
    // The baseline: the variant a phone took for the banner before the crop (2400 px of the whole banner).
    const html = (await rawGet(`${service.url}/`, { 'user-agent': PHONE.userAgent })).body.toString();
    const crop = /srcSet="([^"]*right-2x1[^"]*)"/.exec(html)[1].split(', ');
    const whole = crop.at(-1).replace(/\/right-2x1\/\d+\//, '/2400/');
    const size = async (address) => (await rawGet(service.url + address.split(' ')[0], { accept: AVIF })).body.length / 1024;
    const banner = { crop: await size(crop.at(-1)), whole: await size(whole) };
    return report(rows, home, banner);
  } finally {
    await browser.close();
    await service.stop();
    await cms.stop();
    await api.stop();
  }
}

function report(rows, home, banner) {
  // The heaviest page, against the target: a list's cards are fetched several screens ahead.
  const heaviest = rows.reduce((a, b) => (b.kb > a.kb ? b : a));
  const met = heaviest.kb <= TARGET_KB;
  const markdown = `## A phone's first screen with a CMS's camera photos

Command: \`${commandLine()}\` (${stamp()}).
Every upload the content names is a 4000 × 3000 camera JPEG (\`cameraJpeg\` in test/support/media-fixtures.ts, four scenes) on a
stub CMS's host (\`MEDIA_ORIGINS\`), as in test/cms-content.test.ts. Each page is rendered once by a request with a phone's
User-Agent (the first visitor), which makes its first screen's variants for phones ahead; once no transform has run for
${SETTLE_MS / 1000} s, Chromium loads it ${LOADS} times as a 390 × 844 phone at 3× (a fresh context each time, cache off, no scrolling,
until the network is idle). "Images" is the median of the image bytes transferred (CDP \`encodedDataLength\`, what Chromium's
lazy loading fetches below the window included); "first screen" the preloaded images (fetched at high priority) and how many of
them were answered \`X-Cache: MISS\` (made while the phone waited) on the first of those loads. The machine is shared and busy:
bytes do not depend on it, times would.

${table(
  ['page', 'images KB', 'images', 'first screen', 'waited for a transform'],
  rows.map((r) => [r.path, fmt(r.kb, 1), String(r.count), String(r.first), String(r.waited)]),
)}

The home banner on this phone: its crop for phones (\`right-2x1\`, 1080 px AVIF, its widest) is ${fmt(banner.crop, 1)} KB, against
${fmt(banner.whole, 1)} KB for the whole banner at 2400 px, the variant the phone took before the banner had a phone crop.

A list's cards (content items, hospitals, awards) offer a phone variants up to 640 px (\`CARD_PHONE_WIDEST\`, decision 039):
1.8× the card on this screen, where 3× took the 1080 px variant and the lists loaded 200–350 KB.

Target: every page's images before scrolling ≤ ${TARGET_KB} KB at 390 px, 3× — **${met ? 'met' : 'not met'}** (the heaviest,
${heaviest.path}, ${fmt(heaviest.kb, 1)} KB; the home page ${fmt(home.kb, 1)} KB).
`;
  return { met, markdown, rows, home, banner };
}

export async function runPhoneImages() {
  const r = await benchPhoneImages();
  writeSection('phone-images', r.markdown);
  return r;
}

if (isMain(import.meta.url)) console.log((await runPhoneImages()).markdown);
