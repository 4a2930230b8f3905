// Requests a benchmark makes besides wrk's: one GET, a visitor beside a load, a baseline that
// answers a stored response.
import { writeFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { Agent, request } from 'undici';
import { quantile } from './figures.js';
import { startHelper, tempPath, type Helper } from './processes.js';

/** What a desktop Chrome sends; pages are fetched with these headers. */
export const CHROME_UA = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
export const BROWSER_HEADERS = {
  'User-Agent': CHROME_UA,
  'Accept-Encoding': 'gzip, br',
  Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
};

/** The three pages render.ts and edge.ts measure (tracing.ts the first). */
export const PAGES = {
  home: '/',
  'news list': `/news/index?id=19&name=${encodeURIComponent('集团新闻')}`,
  'expert detail': '/zjxz/detail?id=1',
};

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One GET with undici: status, headers and the raw (still compressed) body bytes. */
export async function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const res = await request(url, { headers });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body };
}

const HOP_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

export interface StoredResponse {
  /** 200 when missing */
  status?: number;
  headers: IncomingHttpHeaders;
  /** base64 */
  body: string;
}

/** A response as static-server.ts serves it: status, headers (without hop-by-hop), body. */
export function storedResponse({ status, headers, body }: RawResponse): StoredResponse {
  const kept = Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_HEADERS.has(k.toLowerCase())));
  return { status, headers: kept, body: body.toString('base64') };
}

/**
 * The raw node:http baseline (static-server.ts) answering one stored response at any path;
 * `routes` instead serves one response per path. Stop it with stop().
 */
export function rawBaseline(name: string, given: { answer: RawResponse } | { routes: Record<string, StoredResponse> }): Promise<Helper> {
  const file = tempPath(`${name.replace(/\W+/g, '-')}.json`);
  writeFileSync(file, JSON.stringify('routes' in given ? { routes: given.routes } : storedResponse(given.answer)));
  return startHelper('bench/static-server.ts', [file, 0]);
}

export interface Visits {
  requests: number;
  errors: number;
  failures: Map<string | number, number>;
  p50: number;
  p99: number;
}

/**
 * An ordinary visitor at 127.0.0.2 (another client than wrk's 127.0.0.1) asking for `paths` in turn
 * every 20 ms until stopped: latencies and failures (a 404 is an answer, not a failure).
 */
export function visitor(base: string, paths: readonly string[], headers: Record<string, string> = { accept: 'text/html' }) {
  const agent = new Agent({ localAddress: '127.0.0.2', connections: 4 });
  const latencies: number[] = [];
  const failures = new Map<string | number, number>();
  const fail = (key: string | number) => failures.set(key, (failures.get(key) ?? 0) + 1);
  let going = true;
  const done = (async () => {
    for (let i = 0; going; i++) {
      const started = performance.now();
      try {
        const res = await request(base + paths[i % paths.length], { dispatcher: agent, headers });
        await res.body.dump();
        latencies.push(performance.now() - started);
        if (res.statusCode >= 400 && res.statusCode !== 404) fail(res.statusCode);
      } catch (error) {
        fail(String((error as { code?: string }).code ?? error));
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    await agent.close();
  })();
  return {
    async stop(): Promise<Visits> {
      going = false;
      await done;
      const errors = [...failures.values()].reduce((a, b) => a + b, 0);
      return { requests: latencies.length + errors, errors, failures, p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
    },
  };
}
