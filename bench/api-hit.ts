// Cached API hit against a raw node:http server answering the same bytes, in the same run.
import { isMain } from './harness/args.js';
import { fmt, row, stamp, TABLE_HEAD } from './harness/figures.js';
import { rawBaseline, rawGet } from './harness/http.js';
import { ensureBuild, ensureWrk, settled } from './harness/processes.js';
import { profileClock, profileService } from './harness/profile.js';
import { commandLine, measureSection } from './harness/results.js';
import { startService, type ServiceProcess } from './harness/service.js';
import { compare, wrk } from './harness/wrk.js';

const PATH = '/api/news?categoryId=19&page=1&pageSize=9';
/** A small answer (about 100 bytes), where the fixed work per request weighs most. */
const SMALL_PATH = '/api/news-categories';
const ROUNDS = 3;
const SECONDS = 4;
const TARGET = { throughput: 0.6, p99: 2 };

/** One cached path against a raw node:http server answering the same bytes. */
async function measurePath(service: ServiceProcess, path: string) {
  const url = `${service.url}${path}`;
  await rawGet(url);
  const answer = await rawGet(url, { 'accept-encoding': 'identity' });
  const baseline = await rawBaseline(`api-hit-${path}`, { answer });
  try {
    const result = compare({ service: url, baseline: `${baseline.url}${path}` }, { rounds: ROUNDS, seconds: SECONDS });
    return {
      result,
      bytes: answer.body.length,
      throughput: result.service.rps / result.baseline.rps,
      p99: result.service.p99 / result.baseline.p99,
    };
  } finally {
    await baseline.stop();
  }
}

async function benchApiHit() {
  ensureWrk();
  ensureBuild();
  const service = await startService();
  try {
    // A page first, as in production: whatever rendering leaves behind, the hits pay for too.
    // What it sets going in the background (images described, variants made ahead) ends first:
    // a hit's figure is the steady state's, not a start's.
    await rawGet(`${service.url}/`);
    await settled(service.child.pid);
    const large = await measurePath(service, PATH);
    const small = await measurePath(service, SMALL_PATH);
    const tableText = [
      TABLE_HEAD,
      row(`cached API hit (${large.bytes} B JSON)`, large.result.service, large.result.baseline),
      row(`cached API hit, small body (\`${SMALL_PATH}\`, ${small.bytes} B JSON)`, small.result.service, small.result.baseline),
    ].join('\n');
    const met = [large, small].every((m) => m.throughput >= TARGET.throughput && m.p99 <= TARGET.p99);
    const markdown = `## Cached API hit vs raw node:http answering the same bytes

Command: \`${commandLine()}\` (${stamp()}).
\`wrk -t1 -c50\`, ${ROUNDS} alternating rounds of ${SECONDS} s per target, medians. \`GET ${PATH}\` and \`GET ${SMALL_PATH}\`
without \`Accept-Encoding\`. The service runs from the production build with request logging at \`info\`
(one JSON line per request), metrics and security headers, as in production. The baseline is a
bare \`node:http\` server writing the same status, headers and body. The service has rendered the home
page, and finished what that set going in the background, before it is measured.

${tableText}

Target: throughput ≥ ${TARGET.throughput} × baseline and p99 ≤ ${TARGET.p99} × baseline on both — **${met ? 'met' : 'not met'}**
(${fmt(large.throughput, 2)}, p99 ${fmt(large.p99, 2)}; small body ${fmt(small.throughput, 2)}, p99 ${fmt(small.p99, 2)}).
`;
    return { throughput: large.throughput, p99: large.p99, small, met, table: tableText, markdown };
  } finally {
    await service.stop();
  }
}

/** Where the time goes: the service under --cpu-prof while wrk requests the cached path. */
async function profileApiHit(seconds = 4, path = SMALL_PATH) {
  const summary = await profileService(async (url, pid) => {
    await rawGet(`${url}/`);
    await rawGet(url + path);
    await settled(pid);
    const from = profileClock();
    wrk(url + path, { seconds });
    return { from, to: profileClock() };
  });
  return `### Where the time goes (cached API hit, small body)

The service under \`node --cpu-prof\` while \`wrk -t1 -c50 -d${seconds}s\` requests \`${path}\` (one run, after the
measurements above), counting only the samples taken while wrk ran: with a body this small the fixed work of every
request is what shows. Top self-time functions:

${summary}
`;
}

// The profile is always written: where a small hit's time goes is worth seeing even when the target is met.
export const runApiHit = () => measureSection('api-hit', benchApiHit, () => profileApiHit(), { alwaysProfile: true });

if (isMain(import.meta.url)) console.log((await runApiHit()).markdown);
