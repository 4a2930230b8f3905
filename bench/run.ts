// `npm run bench`: every benchmark except the soak and the one-off comparisons, each figure beside
// a baseline measured in the same run. Prints each section and rewrites bench/RESULTS.md.
// `npm run bench -- <name> [its options]`: bench/<name>.ts alone, in a process of its own.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fmt, fmtRatio, ratio, stamp, table } from './harness/figures.js';
import { ensureBuild, ensureWrk, ROOT } from './harness/processes.js';
import { orderSections, writeSection } from './harness/results.js';

// The name is the first argument; the options after it are the benchmark's own, read by it.
const { tokens } = parseArgs({ args: process.argv.slice(2), strict: false, allowPositionals: true, tokens: true });
const first = tokens[0];
if (first) {
  if (first.kind !== 'positional') throw new Error(`usage: npm run bench -- [<name> [its options]] (got ${process.argv[2]})`);
  process.exit(runAlone(first.value, process.argv.slice(3)));
}

/** Runs one benchmark by its name (its file in bench/) with the given options; its exit code. */
function runAlone(name: string, args: string[]): number {
  const file = `bench/${name}.ts`;
  if (!/^[a-z-]+$/.test(name) || !existsSync(ROOT + file)) throw new Error(`no benchmark called ${JSON.stringify(name)} in bench/`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', file, ...args], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, BENCH_COMMAND: `npm run bench -- ${name}` },
  });
  return run.status ?? 1;
}

process.env.BENCH_COMMAND ??= 'npm run bench';
const started = Date.now();
ensureWrk();
ensureBuild();

const { runSideBySide } = await import('./side-by-side.js');
const { runRender } = await import('./render.js');
const { runColdMiss } = await import('./cold-miss.js');
const { runBrowser } = await import('./browser.js');
const { runFleet } = await import('./fleet.js');
const { runEdge } = await import('./edge.js');
const { runAbuse } = await import('./abuse.js');
const { runRequestClasses } = await import('./request-classes.js');
const { runTracing } = await import('./tracing.js');
const { runMedia } = await import('./media.js');
const { runSearch } = await import('./search.js');

const verdicts: string[][] = [];
const section = (title: string, markdown: string) => {
  console.log(`\n${markdown}`);
  console.log(`(${title} done at ${fmt((Date.now() - started) / 1000)} s)`);
};

const sideBySide = await runSideBySide();
section('side-by-side', sideBySide.markdown);
for (const j of sideBySide.judged) verdicts.push([j.text, fmtRatio(j.r), j.verdict === 'met' ? 'yes' : `**${j.verdict}**`]);

const render = await runRender();
section('render', render.markdown);
verdicts.push([
  'fresh render: throughput ≥ 0.5 × bare renderToPipeableStream in every round',
  render.ratios.map(fmtRatio).join(', '),
  render.met ? 'yes' : '**no**',
]);

const miss = await runColdMiss();
section('cold-miss', miss.markdown);
verdicts.push([
  'cold miss: < 2 ms added at p50, one at a time (10 in flight shown too)',
  miss.added.map(([n, a]) => `${n}: ${a >= 0 ? '+' : ''}${fmt(a, 2)} ms`).join('; '),
  miss.met ? 'yes' : '**no**',
]);

const fleet = await runFleet();
section('fleet', fleet.markdown);

const edge = await runEdge();
section('edge', edge.markdown);
verdicts.push([
  'a publish is seen everywhere (two instances and Varnish) within 1 s, p99 over 100 publishes',
  `p50 ${fmt(edge.p50, 1)} ms, p99 ${fmt(edge.p99, 1)} ms`,
  edge.p99 < 1_000 ? 'yes' : '**no**',
]);

const abuse = await runAbuse();
section('abuse', abuse.markdown);
verdicts.push([
  'a client flooding random ids: upstream calls it causes, limits on vs off; a visitor beside it never fails',
  `${fmt(abuse.ids.on.upstreamPerSecond, 1)} vs ${fmt(abuse.ids.off.upstreamPerSecond, 1)} calls/s; visitor failures ${abuse.ids.on.visits.errors}`,
  abuse.ids.on.upstreamPerSecond < abuse.ids.off.upstreamPerSecond / 5 && abuse.ids.on.visits.errors === 0 ? 'yes' : '**no**',
]);

const classes = await runRequestClasses();
section('request-classes', classes.markdown);
verdicts.push([
  'request classes: unknown addresses from one client ≥ 0.5 × the cached home page; a visitor’s cached page p99 < 25 ms beside a 100-connection flood of them',
  `${fmtRatio(classes.unknownRatio)} ×; p99 ${fmt(classes.floodP99, 1)} ms (alone ${fmt(classes.aloneP99, 1)} ms)`,
  classes.met ? 'yes' : '**no**',
]);

const tracing = await runTracing();
writeSection('tracing', tracing.markdown);
section('tracing', tracing.markdown);
verdicts.push([
  'tracing (OpenTelemetry, every span exported) against off: cached API hit, warm page, throughput',
  `${fmtRatio(ratio(tracing.api.on, tracing.api.off))} ×, ${fmtRatio(ratio(tracing.page.on, tracing.page.off))} × (off by default)`,
  'measured',
]);

const media = await runMedia();
section('media', media.markdown);
verdicts.push([
  'media: a warm variant ≥ 0.5 × raw node:http; memory under its bounds in a burst of 1,000 new images; the bomb refused in < 100 ms',
  `${fmtRatio(media.warmRatio)} ×; peak ${fmt(media.rssMax)} MiB; bomb ${fmt(media.bombMaxMs, 1)} ms at most (${fmt(media.perCore, 2)} new variants/s per core)`,
  media.met.warm && media.met.memory && media.met.bomb ? 'yes' : '**no**',
]);

const search = await runSearch();
writeSection('search', search.markdown);
section('search', search.markdown);
verdicts.push([
  'search over 60,000 items: built < 30 s, the index < 200 MB, p95 < 10 ms computed anew, a publish found < 5 s',
  `${fmt(search.big.built.ms / 1000, 1)} s; ${fmt(search.indexMiB)} MiB; p95 ${fmt(search.p95, 1)} ms; ${fmt(Math.max(...search.publishes))} ms`,
  search.met ? 'yes' : '**no**',
]);

const browser = await runBrowser();
section('browser', browser.markdown);
for (const [t, v, ok] of browser.verdicts) verdicts.push([`Chromium: ${t}`, v, ok ? 'yes' : '**no**']);

const seconds = (Date.now() - started) / 1000;
writeSection(
  'summary',
  `## Summary of the last \`npm run bench\`

${stamp()}; the whole run took ${fmt(seconds)} s. Details and baselines in the sections below; the soak is run apart
(\`npm run bench -- soak\`).

${table(['target', 'measured (page order: home, news list, expert detail)', 'met'], verdicts)}
`,
);
orderSections([
  'summary',
  'notes',
  'side-by-side',
  'render',
  'cold-miss',
  'fleet',
  'edge',
  'abuse',
  'request-classes',
  'tracing',
  'media',
  'search',
  'browser',
  'soak',
  'soak-cycles',
]);
console.log(`\n${table(['target', 'measured', 'met'], verdicts)}`);
console.log(`\nnpm run bench: ${fmt(seconds)} s; tables written to bench/RESULTS.md`);
