// `npm run bench -- main-thread [--pages=/,/zjxz/index] [--loads=N] [--compile]`: what a phone's first load asks of
// the browser's main thread, page by page. Lighthouse's mobile score multiplies every main-thread
// task of the load it observed by four and counts what passes 50 ms after the first paint, so a task
// longer than about 12 ms here costs blocking time, and more on a slower machine (decision 053).
// Each page is loaded in a new Chromium context at Lighthouse's phone size (412 × 823, DPR 1.75)
// with a trace, after one uncounted load that has its pictures made; for each load: the first
// contentful paint, the main thread's layout, style, paint and HTML parse, the longest task before
// and after the paint, what that longest task after it was made of (self time by trace event), and
// the blocking time its tasks would give at four times slower. Medians over the loads. The scripts
// the measure runs are the app's, as a visitor gets them (RUM off, as in every benchmark here).
// Each load is followed by a second of the same page in the same renderer process: its layout is
// the page's own, and what the first load's layout has beyond it is what a new renderer pays to lay
// out anything at all (fonts opened, memory first touched).
// --compile also traces V8's compiler, which names what a script's task spends on compiling
// (ParseFunction, PreParse) but makes those tasks longer: the durations are then not comparable.
// Loopback only; every load is bounded in time.
import type { Browser, Page } from 'playwright-core';
import { BASE_FLAGS } from '../test/support/chromium-flags.js';
import { launchOwnChromium } from '../test/support/launch-chromium.js';
import { benchArgs, isMain } from './harness/args.js';
import { fmt, median, stamp, table } from './harness/figures.js';
import { ensureBuild } from './harness/processes.js';
import { commandLine, writeSection } from './harness/results.js';
import { startService } from './harness/service.js';

const args = process.argv.slice(2);
const { values: options } = benchArgs({ pages: { type: 'string' }, loads: { type: 'string' }, compile: { type: 'boolean' } });
const PAGES = (options.pages ?? '/,/hzhf/kpzs,/zjxz/index,/xsyj/kyxw,/lxwm/index').split(',');
const LOADS = Number(options.loads ?? 5);
const COMPILE = options.compile ?? false;
const LOAD_TIMEOUT_MS = 45_000;
/** After the load event: hydration and what follows it happen within this. */
const SETTLE_MS = 1_500;
/** Lighthouse's phone (its default mobile emulation). */
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'loading',
  'blink.user_timing',
  ...(COMPILE ? ['v8', 'disabled-by-default-v8.compile'] : []),
].join(',');
/** Lighthouse's simulated slowdown of a phone's CPU, and the length past which a task blocks. */
const SLOWDOWN = 4;
const BLOCKING_MS = 50;

/** A trace event, as Chromium reports it. */
interface TraceEvent {
  name: string;
  ts: number;
  dur: number;
  pid: number;
  tid: number;
  ph: string;
  args?: { data?: { isLoadingMainFrame?: boolean } };
}

/** Milliseconds spent in events of these names. */
const sumOf = (events: TraceEvent[], names: string[]) => events.filter((e) => names.includes(e.name)).reduce((n, e) => n + e.dur, 0) / 1000;

const isTask = (e: TraceEvent) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask';

/** A task's own contents: self time per trace event name inside it, largest first. */
function contents(task: TraceEvent, events: TraceEvent[]) {
  const inside = events
    .filter((e) => e !== task && e.ts >= task.ts && e.ts < task.ts + task.dur)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const self = new Map<string, number>();
  const stack: TraceEvent[] = [];
  for (const e of inside) {
    while (stack.length > 0 && stack.at(-1)!.ts + stack.at(-1)!.dur <= e.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - e.dur);
    self.set(e.name, (self.get(e.name) ?? 0) + e.dur);
    stack.push(e);
  }
  return [...self]
    .filter(([, us]) => us >= 1_000)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, us]) => `${name} ${fmt(us / 1000, 1)}`)
    .join(', ');
}

/** The trace of one load of `url` in `page`. */
async function traced(page: Page, url: string): Promise<TraceEvent[]> {
  const cdp = await page.context().newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', (d) => events.push(...(d.value as unknown as TraceEvent[])));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  await page.goto(url, { waitUntil: 'load', timeout: LOAD_TIMEOUT_MS });
  await page.waitForTimeout(SETTLE_MS);
  await cdp.send('Tracing.end');
  await complete;
  await cdp.detach();
  return events;
}

/** The load's first contentful paint, and the main-thread events of the renderer that painted it. */
function paintingThread(events: TraceEvent[], url: string) {
  const fcp = events.find((e) => e.name === 'firstContentfulPaint');
  if (!fcp) throw new Error(`${url}: the trace has no first contentful paint`);
  return { fcp, main: events.filter((e) => e.pid === fcp.pid && e.tid === fcp.tid && e.ph === 'X' && e.dur !== undefined) };
}

/**
 * One traced load in a new context: the figures of its renderer's main thread; and the layout of
 * the same page loaded again in that renderer.
 */
async function tracedLoad(browser: Browser, url: string) {
  const context = await browser.newContext(PHONE);
  try {
    const page = await context.newPage();
    const events = await traced(page, url);
    const again = paintingThread(await traced(page, `${url}${url.includes('?') ? '&' : '?'}again`), url);
    const { fcp, main } = paintingThread(events, url);
    const start = events.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame);
    if (!start) throw new Error(`${url}: the trace has no navigation`);
    const sum = (...names: string[]) => sumOf(main, names);
    const tasks = main.filter(isTask);
    const before = tasks.filter((t) => t.ts < fcp.ts);
    const after = tasks.filter((t) => t.ts >= fcp.ts);
    const longestAfter = after.reduce<TraceEvent | undefined>((a, b) => (b.dur > (a?.dur ?? 0) ? b : a), undefined);
    return {
      fcp: (fcp.ts - start.ts) / 1000,
      layout: sum('Layout'),
      layoutAgain: sumOf(again.main, ['Layout']),
      style: sum('UpdateLayoutTree'),
      paint: sum('PrePaint', 'Paint'),
      parse: sum('ParseHTML'),
      longestBefore: Math.max(0, ...before.map((t) => t.dur / 1000)),
      longestAfter: (longestAfter?.dur ?? 0) / 1000,
      what: longestAfter ? contents(longestAfter, main) : '',
      blocking: after.reduce((n, t) => n + Math.max(0, (t.dur / 1000) * SLOWDOWN - BLOCKING_MS), 0),
    };
  } finally {
    await context.close();
  }
}

export async function benchMainThread() {
  ensureBuild();
  const service = await startService({ env: { LOG_LEVEL: 'warn' } });
  const browser = await launchOwnChromium(BASE_FLAGS);
  try {
    const rows: Row[] = [];
    for (const path of PAGES) {
      const url = service.url + path;
      // Uncounted: the page's pictures are made on this first load.
      await tracedLoad(browser, url);
      const loads: Load[] = [];
      for (let i = 0; i < LOADS; i++) loads.push(await tracedLoad(browser, url));
      const m = (key: Exclude<keyof Load, 'what'>) => median(loads.map((l) => l[key]));
      // What the longest task after the paint was made of, in the load nearest the median.
      const middle = m('longestAfter');
      const typical = loads.reduce((a, b) => (Math.abs(b.longestAfter - middle) < Math.abs(a.longestAfter - middle) ? b : a));
      const row: Row = {
        path,
        fcp: m('fcp'),
        layout: m('layout'),
        layoutAgain: m('layoutAgain'),
        style: m('style'),
        paint: m('paint'),
        parse: m('parse'),
        longestBefore: m('longestBefore'),
        longestAfter: m('longestAfter'),
        blocking: m('blocking'),
        what: typical.what,
      };
      rows.push(row);
      console.log(
        `${path.padEnd(20)} FCP ${fmt(row.fcp)} ms, layout ${fmt(row.layout, 1)} (again ${fmt(row.layoutAgain, 1)}), longest task before ${fmt(row.longestBefore, 1)} / after ${fmt(row.longestAfter, 1)} ms (${row.what}), blocking at ${SLOWDOWN}× ${fmt(row.blocking)} ms`,
      );
    }
    return report(rows);
  } finally {
    await browser.close();
    await service.stop();
  }
}

type Load = Awaited<ReturnType<typeof tracedLoad>>;
type Row = Load & { path: string };

function report(rows: Row[]) {
  const markdown = `## A phone's first load on the main thread

Command: \`${[commandLine(), ...args].join(' ')}\` (${stamp()}).
Each page loaded ${LOADS} times in a new Chromium context at Lighthouse's phone size (412 × 823, DPR 1.75), traced, after one
uncounted load; medians, in milliseconds of this machine's main thread (no slowdown). The blocking time counts, for every task
after the first contentful paint, what it would last past ${BLOCKING_MS} ms at ${SLOWDOWN}× slower, as Lighthouse's mobile
simulation does (its own figure schedules the tasks anew, so it differs; the longest task after the paint is what to watch:
past ~${BLOCKING_MS / SLOWDOWN} ms it blocks). What that task was made of is its self time by trace event, in the load nearest
the median. "Layout again" is the page's layout when it is loaded a second time in the same renderer process: what the
first load's layout has beyond it is the new process's cost (fonts opened, memory first touched), not the page's.${COMPILE ? " V8's compiler was traced too (`--compile`), which lengthens the tasks that run scripts." : ''}

${table(
  [
    'page',
    'FCP',
    'layout',
    'layout again',
    'style',
    'paint',
    'HTML parse',
    'longest task before FCP',
    'longest task after FCP',
    'made of',
    `blocking at ${SLOWDOWN}×`,
  ],
  rows.map((r) => [
    r.path,
    fmt(r.fcp),
    fmt(r.layout, 1),
    fmt(r.layoutAgain, 1),
    fmt(r.style, 1),
    fmt(r.paint, 1),
    fmt(r.parse, 1),
    fmt(r.longestBefore, 1),
    fmt(r.longestAfter, 1),
    r.what,
    fmt(r.blocking),
  ]),
)}
`;
  return { markdown, rows };
}

export async function runMainThread() {
  const r = await benchMainThread();
  writeSection('main-thread', r.markdown);
  return r;
}

if (isMain(import.meta.url)) console.log((await runMainThread()).markdown);
