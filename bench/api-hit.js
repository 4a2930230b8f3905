// Cached API hit against a raw node:http server answering the same bytes, in the same run.
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compare, ensureBuild, ensureWrk, row, startNode, TABLE_HEAD } from './lib.js';

const SERVICE_PORT = 3901;
const BASELINE_PORT = 3902;
const PATH = '/api/news?categoryId=19&page=1&pageSize=9';

export async function benchApiHit() {
  ensureWrk();
  ensureBuild();
  const service = await startNode(['dist/server/index.js'], {
    env: { PORT: String(SERVICE_PORT), HOST: '127.0.0.1', LOG_LEVEL: 'info' },
    ready: 'listening',
  });
  try {
    const url = `http://127.0.0.1:${SERVICE_PORT}${PATH}`;
    await fetch(url);
    const res = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    const body = Buffer.from(await res.arrayBuffer());
    const headers = Object.fromEntries([...res.headers].filter(([k]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(k)));
    const file = join(tmpdir(), 'bench-api-hit.json');
    writeFileSync(file, JSON.stringify({ headers, body: body.toString('base64') }));
    const baseline = await startNode(['bench/static-server.js', file, String(BASELINE_PORT)], { ready: 'ready' });
    try {
      const result = compare({ service: url, baseline: `http://127.0.0.1:${BASELINE_PORT}${PATH}` }, { rounds: 3, seconds: 8 });
      return { bytes: body.length, table: `${TABLE_HEAD}\n${row(`cached API hit (${body.length} B JSON)`, result.service, result.baseline)}` };
    } finally {
      await baseline.stop();
    }
  } finally {
    await service.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { table } = await benchApiHit();
  console.log(table);
}
