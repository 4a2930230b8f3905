// `npm run bench -- inspector-cost [--pages=/,/gnyy/yyxq?id=1] [--loads=N]`: what a page's start costs
// the main thread with and without the inspector's Runtime domain enabled, as Lighthouse and
// Playwright enable it and a visitor's browser does not.
//
// With the Runtime domain on, V8 keeps a detailed stack for every Error made, so that DevTools can
// show where it came from; React DOM makes a few at its module's start (the sentinels of
// Suspense), and the positions of its whole module are then worked out on the main thread. Each
// page is loaded in a new browser context over a bare DevTools connection (no Playwright, which
// enables Runtime on every page), alternately with Runtime enabled and without, after one uncounted
// load that has its pictures made. A loop of MessageChannel messages, installed before the page's
// own scripts, records every gap of over 12 ms between two of its turns: a task that long ran in
// between. Figures are medians over the loads of the longest gap, and of the blocking time the gaps
// would give at Lighthouse's fourfold slowdown, from the first contentful paint to 3 s after it.
// Loopback only; every load has a fixed length.
import * as chromeLauncher from 'chrome-launcher';
import { BASE_FLAGS } from '../test/support/chromium-flags.js';
import { CHROMIUM_PATH } from '../test/support/launch-chromium.js';
import { benchArgs, isMain } from './harness/args.js';
import { fmt, median, stamp, table } from './harness/figures.js';
import { ensureBuild, sleep } from './harness/processes.js';
import { commandLine, writeSection } from './harness/results.js';
import { startService } from './harness/service.js';

const args = process.argv.slice(2);
const { values: options } = benchArgs({ pages: { type: 'string' }, loads: { type: 'string' } });
const PAGES = (options.pages ?? '/,/gnyy/yyxq?id=1,/gjws/index,/zjxz/index').split(',');
const LOADS = Number(options.loads ?? 6);
/** How long a load is watched: its start, hydration and what follows. */
const WATCH_MS = 5_000;
const AFTER_FCP_MS = 3_000;
const SLOWDOWN = 4;
const BLOCKING_MS = 50;
/** Installed before the page's scripts: the gaps (start, length in ms) between turns of a message loop. */
const GAP_RECORDER = `(() => {
  const gaps = []; window.__gaps = gaps;
  const channel = new MessageChannel();
  let last = performance.now();
  const end = last + ${WATCH_MS};
  channel.port1.onmessage = () => {
    const now = performance.now();
    if (now - last > 12) gaps.push([last, now - last]);
    last = now;
    if (now < end) channel.port2.postMessage(0);
  };
  channel.port2.postMessage(0);
})();`;

/** A bare DevTools connection: commands in, answers out, nothing enabled that is not asked for. */
async function connect(port: number) {
  const { webSocketDebuggerUrl } = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  const ws = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    ws.addEventListener('open', resolve);
    ws.addEventListener('error', reject);
  });
  let id = 0;
  const waiting = new Map<number, (answer: { result?: Record<string, unknown>; error?: unknown }) => void>();
  ws.addEventListener('message', (m) => {
    const answer = JSON.parse(String(m.data)) as { id?: number; result?: Record<string, unknown>; error?: unknown };
    if (!answer.id) return;
    waiting.get(answer.id)?.(answer);
    waiting.delete(answer.id);
  });
  const send = async <T = Record<string, unknown>>(method: string, params: object = {}, sessionId?: string): Promise<T> => {
    const answer = await new Promise<{ result?: Record<string, unknown>; error?: unknown }>((resolve) => {
      waiting.set(++id, resolve);
      ws.send(JSON.stringify({ id, method, params, sessionId }));
    });
    if (answer.error) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
    return answer.result as T;
  };
  return { send, close: () => ws.close() };
}

type Send = Awaited<ReturnType<typeof connect>>['send'];

/** One load of `url` in a new browser context: the gaps after its first contentful paint. */
async function load(send: Send, url: string, runtime: boolean) {
  const { browserContextId } = await send<{ browserContextId: string }>('Target.createBrowserContext');
  const { targetId } = await send<{ targetId: string }>('Target.createTarget', { url: 'about:blank', browserContextId });
  try {
    const { sessionId } = await send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    await send('Page.enable', {}, sessionId);
    await send('Page.addScriptToEvaluateOnNewDocument', { source: GAP_RECORDER }, sessionId);
    // Lighthouse's phone.
    await send('Emulation.setDeviceMetricsOverride', { width: 412, height: 823, deviceScaleFactor: 1.75, mobile: true }, sessionId);
    if (runtime) await send('Runtime.enable', {}, sessionId);
    await send('Page.navigate', { url }, sessionId);
    await sleep(WATCH_MS + 500);
    const { result } = await send<{ result: { value: string } }>(
      'Runtime.evaluate',
      {
        expression: `JSON.stringify({ fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime, gaps: window.__gaps })`,
        returnByValue: true,
      },
      sessionId,
    );
    const { fcp, gaps } = JSON.parse(result.value) as { fcp?: number; gaps?: [number, number][] };
    if (fcp === undefined || !gaps) throw new Error(`${url}: no first contentful paint or no gaps recorded`);
    const after = gaps.filter(([start]) => start >= fcp - 5 && start < fcp + AFTER_FCP_MS).map(([, length]) => length);
    return {
      longest: Math.max(0, ...after),
      blocking: after.reduce((n, length) => n + Math.max(0, length * SLOWDOWN - BLOCKING_MS), 0),
    };
  } finally {
    await send('Target.closeTarget', { targetId });
    await send('Target.disposeBrowserContext', { browserContextId });
  }
}

export async function benchInspectorCost() {
  ensureBuild();
  const service = await startService({ env: { LOG_LEVEL: 'warn' } });
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: BASE_FLAGS, logLevel: 'silent' });
  const { send, close } = await connect(chrome.port);
  try {
    const rows: string[][] = [];
    for (const path of PAGES) {
      const url = service.url + path;
      await load(send, url, false);
      const seen = { on: [] as Awaited<ReturnType<typeof load>>[], off: [] as Awaited<ReturnType<typeof load>>[] };
      for (let i = 0; i < LOADS; i++) {
        seen.on.push(await load(send, url, true));
        seen.off.push(await load(send, url, false));
      }
      const m = (loads: typeof seen.on, key: 'longest' | 'blocking') => median(loads.map((l) => l[key]));
      const row = [
        path,
        fmt(m(seen.on, 'longest')),
        fmt(m(seen.off, 'longest')),
        fmt(m(seen.on, 'blocking')),
        fmt(m(seen.off, 'blocking')),
      ];
      console.log(
        `${path.padEnd(20)} longest task after FCP ${row[1]} ms with Runtime, ${row[2]} without; blocking at 4× ${row[3]} / ${row[4]} ms`,
      );
      rows.push(row);
    }
    const markdown = `## What the inspector costs a phone's start

Command: \`${[commandLine(), ...args].join(' ')}\` (${stamp()}).
Each page loaded ${LOADS} times with the inspector's Runtime domain enabled (as Lighthouse and Playwright do) and ${LOADS} times
without (as a visitor's browser runs), alternately, each in a new browser context over a bare DevTools connection, at
Lighthouse's phone size, after one uncounted load. The longest task is the longest gap in a message loop the page runs from its
start, within ${AFTER_FCP_MS / 1000} s after the first contentful paint; the blocking time adds, for every gap there, what it would
last past ${BLOCKING_MS} ms at ${SLOWDOWN}× slower. Medians, in milliseconds of this machine.

${table(['page', 'longest task, Runtime on', 'longest task, Runtime off', `blocking at ${SLOWDOWN}×, on`, `blocking at ${SLOWDOWN}×, off`], rows)}
`;
    return { markdown };
  } finally {
    close();
    chrome.kill();
    await service.stop();
  }
}

export async function runInspectorCost() {
  const r = await benchInspectorCost();
  writeSection('inspector-cost', r.markdown);
  return r;
}

if (isMain(import.meta.url)) console.log((await runInspectorCost()).markdown);
