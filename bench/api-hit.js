// Cached API hit against a raw node:http server answering the same bytes, in the same run.
import { writeFileSync } from 'node:fs';
import {
  commandLine,
  compare,
  ensureBuild,
  fmt,
  profileService,
  wrk,
  ensureWrk,
  isMain,
  rawGet,
  row,
  stamp,
  startHelper,
  startService,
  storedResponse,
  TABLE_HEAD,
  measureSection,
  tempPath,
} from './lib.js';

const PATH = '/api/news?categoryId=19&page=1&pageSize=9';
const ROUNDS = 3;
const SECONDS = 4;
const TARGET = { throughput: 0.5, p99: 2 };

export async function benchApiHit() {
  ensureWrk();
  ensureBuild();
  const service = await startService();
  try {
    const url = `${service.url}${PATH}`;
    // A page first, as in production: whatever rendering leaves behind, the hits pay for too.
    await rawGet(`${service.url}/`);
    await rawGet(url);
    const answer = await rawGet(url, { 'accept-encoding': 'identity' });
    const file = tempPath('api-hit.json');
    writeFileSync(file, JSON.stringify(storedResponse(answer)));
    const baseline = await startHelper('bench/static-server.js', [file, 0]);
    try {
      const result = compare({ service: url, baseline: `${baseline.url}${PATH}` }, { rounds: ROUNDS, seconds: SECONDS });
      const bytes = answer.body.length;
      const tableText = `${TABLE_HEAD}\n${row(`cached API hit (${bytes} B JSON)`, result.service, result.baseline)}`;
      const throughput = result.service.rps / result.baseline.rps;
      const p99 = result.service.p99 / result.baseline.p99;
      const met = throughput >= TARGET.throughput && p99 <= TARGET.p99;
      const markdown = `## Cached API hit vs raw node:http answering the same bytes

Command: \`${commandLine()}\` (${stamp()}).
\`wrk -t1 -c50\`, ${ROUNDS} alternating rounds of ${SECONDS} s per target, medians. \`GET ${PATH}\` without
\`Accept-Encoding\`. The service runs from the production build with request logging at \`info\`
(one JSON line per request), metrics and security headers, as in production. The baseline is a
bare \`node:http\` server writing the same status, headers and body. The service has rendered the home
page before it is measured.

${tableText}

Target: throughput ≥ ${TARGET.throughput} × baseline and p99 ≤ ${TARGET.p99} × baseline — **${met ? 'met' : 'not met'}**
(${fmt(throughput, 2)}, ${fmt(p99, 2)}).
`;
      return { result, throughput, p99, met, table: tableText, markdown };
    } finally {
      await baseline.stop();
    }
  } finally {
    await service.stop();
  }
}

/** Where the time goes: the service under --cpu-prof while wrk requests the cached path. */
export async function profileApiHit(seconds = 4) {
  const summary = await profileService(async (url) => {
    await rawGet(`${url}/`);
    await rawGet(url + PATH);
    wrk(url + PATH, { seconds });
  });
  return `### Where the time goes (cached API hit)

The service under \`node --cpu-prof\` while \`wrk -t1 -c50 -d${seconds}s\` requests \`${PATH}\` (one run, after the
measurements above). Top self-time functions:

${summary}
`;
}

export const runApiHit = () => measureSection('api-hit', benchApiHit, () => profileApiHit());

if (isMain(import.meta.url)) console.log((await runApiHit()).markdown);
