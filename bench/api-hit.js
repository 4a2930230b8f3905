// Cached API hit against a raw node:http server answering the same bytes, in the same run.
import { writeFileSync } from 'node:fs';
import {
  commandLine, compare, ensureBuild, ensureWrk, isMain, rawGet, row, stamp, startHelper, startService,
  storedResponse, TABLE_HEAD, writeSection, tempPath,
} from './lib.js';

const PATH = '/api/news?categoryId=19&page=1&pageSize=9';
const ROUNDS = 3;
const SECONDS = 4;

export async function benchApiHit() {
  ensureWrk();
  ensureBuild();
  const service = await startService();
  try {
    const url = `${service.url}${PATH}`;
    await rawGet(url);
    const answer = await rawGet(url, { 'accept-encoding': 'identity' });
    const file = tempPath('api-hit.json');
    writeFileSync(file, JSON.stringify(storedResponse(answer)));
    const baseline = await startHelper('bench/static-server.js', [file, 0]);
    try {
      const result = compare({ service: url, baseline: `${baseline.url}${PATH}` }, { rounds: ROUNDS, seconds: SECONDS });
      const bytes = answer.body.length;
      const tableText = `${TABLE_HEAD}\n${row(`cached API hit (${bytes} B JSON)`, result.service, result.baseline)}`;
      const markdown = `## Cached API hit vs raw node:http answering the same bytes

Command: \`${commandLine()}\` (${stamp()}).
\`wrk -t1 -c50\`, ${ROUNDS} alternating rounds of ${SECONDS} s per target, medians. \`GET ${PATH}\` without
\`Accept-Encoding\`. The service runs from the production build with request logging at \`info\`
(one JSON line per request), metrics and security headers, as in production. The baseline is a
bare \`node:http\` server writing the same status, headers and body.

${tableText}
`;
      writeSection('api-hit', markdown);
      return { result, table: tableText, markdown };
    } finally {
      await baseline.stop();
    }
  } finally {
    await service.stop();
  }
}

if (isMain(import.meta.url)) {
  const { table } = await benchApiHit();
  console.log(table);
}
