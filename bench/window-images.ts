// `npm run bench -- window-images <url> [--before=<url>] [--pages=/,/zjxz/index]`: the image bytes a
// desktop window downloads when it scrolls through each page, at a tablet's, a laptop's, the
// design's and a wide monitor's width (device scale 1), and the pictures drawn wider than the
// variant fetched for them. In the standard text size the page is the 1920 px design scaled to the
// window, so a picture's slot is a share of the window: its `sizes` should ask for that share,
// neither the design's pixels (too many below 1920 px, too few above) nor less. `--before` names a
// second service (another build, started by hand) measured the same way in the same run, loads
// alternating. Each load is a fresh context with the cache off; pages are loaded once unmeasured
// first, so that no load waits for a variant being made. Loopback only; every load is bounded.
import type { Browser, CDPSession } from 'playwright-core';
import { BASE_FLAGS } from '../test/support/chromium-flags.js';
import { launchOwnChromium } from '../test/support/launch-chromium.js';
import { loadPictures, upscaledIn, variantsChosen } from '../test/support/page-checks/pictures.js';
import { benchArgs, isMain } from './harness/args.js';
import { fmt, stamp, table } from './harness/figures.js';
import { CHROME_UA } from './harness/http.js';
import { keepNamesInPages } from './harness/pages-in-chromium.js';
import { commandLine, writeSection } from './harness/results.js';

const WIDTHS = [
  { width: 768, height: 1024 },
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
  { width: 2560, height: 1440 },
];
const DEFAULT_PAGES = ['/', '/jtjj/qywh', '/hzhf/kpzs', '/zjxz/index', '/zjxz/detail?id=1', '/gjws/index', '/news/index', '/lxwm/index'];
const LOAD_TIMEOUT_MS = 45_000;

/** One load in a fresh context, scrolled to the end: image bytes, and the pictures drawn wider than their variant. */
type Viewport = (typeof WIDTHS)[number];
type Target = { name: string; url: string };
type Row = { width: number; sums: { kb: number; upscaled: number }[] };

async function load(browser: Browser, url: string, viewport: Viewport) {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1, userAgent: CHROME_UA });
  await keepNamesInPages(context);
  try {
    const page = await context.newPage();
    const cdp: CDPSession = await context.newCDPSession(page);
    const images = new Map<string, number>();
    cdp.on('Network.responseReceived', (e) => {
      if (e.type === 'Image') images.set(e.requestId, 0);
    });
    cdp.on('Network.loadingFinished', (e) => {
      if (images.has(e.requestId)) images.set(e.requestId, e.encodedDataLength);
    });
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto(url, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS });
    // Down the page, so that every lazy picture is fetched, until each has loaded, and the network is quiet.
    const neverEnded = await loadPictures(page);
    if (neverEnded.length > 0)
      throw new Error(`${url} at ${viewport.width} px: pictures neither loaded nor failed: ${neverEnded.join(' ')}`);
    await page.waitForLoadState('networkidle', { timeout: LOAD_TIMEOUT_MS });
    // Drawn wider than the variant the browser chose: the tests' own check (decision 048).
    const upscaled = upscaledIn(await variantsChosen(page, 'by-browser')).length;
    return { kb: [...images.values()].reduce((n, b) => n + b, 0) / 1024, upscaled };
  } finally {
    await context.close();
  }
}

export async function benchWindowImages(targets: Target[], pages: string[]) {
  const browser = await launchOwnChromium(BASE_FLAGS);
  try {
    // Unmeasured: every variant the loads ask for is made.
    for (const { url } of targets) for (const viewport of WIDTHS) for (const path of pages) await load(browser, url + path, viewport);
    const rows: Row[] = [];
    for (const viewport of WIDTHS) {
      const sums = targets.map(() => ({ kb: 0, upscaled: 0 }));
      for (const path of pages)
        for (const [i, { url }] of targets.entries()) {
          const r = await load(browser, url + path, viewport);
          sums[i]!.kb += r.kb;
          sums[i]!.upscaled += r.upscaled;
        }
      rows.push({ width: viewport.width, sums });
      console.log(
        `${viewport.width} px: ${sums.map((s, i) => `${targets[i]?.name} ${fmt(s.kb, 1)} KB, ${s.upscaled} upscaled`).join('; ')}`,
      );
    }
    return report(targets, pages, rows);
  } finally {
    await browser.close();
  }
}

function report(targets: Target[], pages: string[], rows: Row[]) {
  const before = targets.length > 1;
  return `## A window's images, scrolled through, by width

Command: \`${commandLine()}\` (${stamp()}).
Chromium loads each of ${pages.length} pages (${pages.map((p) => `\`${p}\``).join(', ')}) on the embedded demo content (camera-sized
photos) in a fresh context (cache off, device scale 1, the standard text size), scrolls through it until every picture drawn
has loaded and the network is quiet (the tests' \`loadPictures\`); "images" is the sum over the pages of the image bytes
transferred (CDP \`encodedDataLength\`), "upscaled" the pictures drawn wider than the variant Chromium chose for them when a
wider one was on offer (the tests' check, \`upscaledIn\`, which allows for padding and \`object-fit\`). Every page was
loaded once unmeasured first, so that no variant is made during a measured load.${before ? ` "${targets[1]?.name}" is the service at \`--before\`, another build, loaded in turn with "${targets[0]?.name}".` : ''}

${table(
  ['window', ...targets.flatMap((t) => [`${t.name}: images KB`, `${t.name}: upscaled`]), ...(before ? ['images, this / before'] : [])],
  rows.map((r) => [
    `${r.width} px`,
    ...r.sums.flatMap((s) => [fmt(s.kb, 1), String(s.upscaled)]),
    ...(before ? [fmt(r.sums[0]!.kb / r.sums[1]!.kb, 2)] : []),
  ]),
)}
`;
}

if (isMain(import.meta.url)) {
  const { values, positionals } = benchArgs({ before: { type: 'string' }, pages: { type: 'string' } });
  const [url] = positionals;
  if (!url) throw new Error('usage: npm run bench -- window-images <url> [--before=<url>] [--pages=/,/zjxz/index]');
  const targets = [{ name: 'this build', url }, ...(values.before ? [{ name: 'before', url: values.before }] : [])];
  const markdown = await benchWindowImages(targets, values.pages?.split(',') ?? DEFAULT_PAGES);
  writeSection('window-images', markdown);
  console.log(markdown);
}
