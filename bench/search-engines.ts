// Which search engine (docs/decisions/034): MiniSearch, Orama and FlexSearch on the same 60,000
// items, each fed the site's own terms (server/search/terms.ts: character pairs, letters and
// digits, pinyin), in one process each time. Measured: the time to index them, the heap they
// hold, and the time of each query (p50, p95). A one-off comparison, not part of `npm run bench`:
//
//   npm install --no-save @orama/orama flexsearch && npm run bench -- search-engines
//
// Each engine runs in a child process of
// its own, so that one's garbage does not weigh on another's figures.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { quantile } from './harness/figures.js';
import { CITIES, EVENTS, pick, QUERIES, TOPICS } from './harness/search-corpus.js';

const ENGINES = ['minisearch', '@orama/orama', 'flexsearch'];
const COUNT = 60_000;

function documents() {
  return Array.from({ length: COUNT }, (_, i) => ({
    key: `content:${100_000 + i}`,
    title: `${pick(CITIES, i)}明瞳眼科${pick(TOPICS, i * 7 + 3)}${pick(EVENTS, i * 3 + 1)}第 ${100_000 + i} 号`,
    summary: `${pick(TOPICS, i * 5 + 1)}患者注意：定期复查可以早发现，规范用药与随访。`,
  }));
}

/** One engine: index the documents, then the queries; figures on stdout as JSON. */
async function measure(engine: string) {
  const { textTerms, queryTerms } = await import('../server/search/terms.js');
  const docs = documents();
  const heapBefore = (globalThis.gc?.(), process.memoryUsage().heapUsed);
  const started = performance.now();
  let search: (terms: string[]) => unknown;
  if (engine === 'minisearch') {
    const { default: MiniSearch } = await import('minisearch');
    const mini = new MiniSearch({ idField: 'key', fields: ['title', 'summary'], tokenize: textTerms, processTerm: (t: string) => t });
    mini.addAll(docs);
    search = (terms) =>
      mini.search(terms.join(' '), {
        tokenize: (s: string) => s.split(' '),
        processTerm: (t: string) => t,
        combineWith: 'AND',
        boost: { title: 5 },
      });
  } else if (engine === '@orama/orama') {
    // Installed for this comparison only (see above): typed here as far as it is used.
    const {
      create,
      insertMultiple,
      search: find,
    } = (await import(engine)) as {
      create: (options: object) => unknown;
      insertMultiple: (db: unknown, docs: object[], batch: number) => Promise<unknown>;
      search: (db: unknown, query: object) => unknown;
    };
    const db = create({
      schema: { key: 'string', title: 'string', summary: 'string' },
      components: {
        tokenizer: { language: 'chinese', normalizationCache: new Map(), tokenize: (text: string) => (text ? textTerms(text) : []) },
      },
    });
    await insertMultiple(db, docs, 1_000);
    search = (terms) =>
      find(db, { term: terms.join(' '), properties: ['title', 'summary'], boost: { title: 5 }, threshold: 0, limit: 500 });
  } else {
    const { Document } = (await import(engine)) as {
      Document: new (options: object) => { add(doc: object): void; search(query: string, options: object): unknown };
    };
    const index = new Document({ document: { id: 'key', index: ['title', 'summary'] }, encode: textTerms });
    for (const doc of docs) index.add(doc);
    search = (terms) => index.search(terms.join(' '), { limit: 500 });
  }
  const buildMs = performance.now() - started;
  globalThis.gc?.();
  const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  const times: number[] = [];
  let found = 0;
  for (let round = 0; round < 5; round++) {
    for (const q of QUERIES) {
      const t = performance.now();
      const result = (await search(queryTerms(q))) as unknown[] | { count?: number; hits?: unknown[] };
      times.push(performance.now() - t);
      if (round === 0) found += Array.isArray(result) ? result.length : (result.count ?? result.hits?.length ?? 0);
    }
  }
  return { engine, buildMs, heapMiB, p50: quantile(times, 0.5), p95: quantile(times, 0.95), found };
}

if (process.argv[2]) {
  process.stdout.write(JSON.stringify(await measure(process.argv[2])));
} else {
  type Figures = Awaited<ReturnType<typeof measure>>;
  const rows = ENGINES.map((engine): Figures | { engine: string; error: string } => {
    try {
      const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), engine], {
        encoding: 'utf8',
      });
      return JSON.parse(out) as Figures;
    } catch (error) {
      return { engine, error: String(error).split('\n')[0] ?? '' };
    }
  });
  console.log('| engine | index 60,000 items | heap held | query p50 | query p95 | results over the queries |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) {
    if ('error' in r) console.log(`| ${r.engine} | ${r.error} |`);
    else
      console.log(
        `| ${r.engine} | ${(r.buildMs / 1000).toFixed(1)} s | ${r.heapMiB.toFixed(0)} MiB | ${r.p50.toFixed(2)} ms | ${r.p95.toFixed(2)} ms | ${r.found} |`,
      );
  }
}
