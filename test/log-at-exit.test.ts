/**
 * The request lines are gathered in memory and written asynchronously (server/observability/
 * logger.ts, docs/decisions/058): none may be lost when the built service is stopped (SIGTERM, with
 * one process or with workers) or crashes on an exception nothing caught. Each run answers a burst
 * of requests, stops or crashes the process the moment the last answer is in (while its lines are
 * still gathered), and counts the lines on its stdout.
 */
import { once } from 'node:events';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBuiltServer, type BuiltServer } from './support/built-server.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

const REQUESTS = 600;
/** A crash on demand, loaded before the service: an error thrown from a signal's listener, which nothing catches. */
const CRASH_ON_SIGUSR2 = `data:text/javascript,${encodeURIComponent(
  "process.on('SIGUSR2', () => { throw new Error('a crash for the test'); });",
)}`;

let upstream: TestUpstream;
beforeAll(async () => {
  upstream = await startTestUpstream();
});
afterAll(() => upstream?.stop());

const start = (env: Record<string, string> = {}, nodeArgs: string[] = []) =>
  startBuiltServer({ UPSTREAM_URL: upstream.url, SEARCH_INDEX: 'first-use', MEDIA_MAKE_AHEAD: 'off', ...env }, nodeArgs);

/** REQUESTS cached API hits, twenty at a time, each with an id of its own; resolves when every answer is in. */
async function burst(server: BuiltServer, run: string): Promise<string[]> {
  const pool = new Pool(server.url, { connections: 20 });
  const ids = Array.from({ length: REQUESTS }, (_, i) => `${run}-${i}`);
  try {
    let next = 0;
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        while (next < ids.length) {
          const id = ids[next++]!;
          const res = await pool.request({ path: '/api/news-categories', method: 'GET', headers: { 'x-request-id': id } });
          await res.body.dump();
          expect(res.statusCode).toBe(200);
        }
      }),
    );
  } finally {
    await pool.destroy();
  }
  return ids;
}

/** The parsed lines of the process's stdout. */
const linesOf = (server: BuiltServer) =>
  server
    .stdout()
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { msg: string; reqId?: string; level: number; err?: { message: string }; origin?: string });

/** The ids whose request line was written. */
const loggedIds = (server: BuiltServer, run: string) =>
  new Set(linesOf(server).flatMap((l) => (l.msg === 'request' && l.reqId?.startsWith(`${run}-`) ? [l.reqId] : [])));

describe('no request line is lost', () => {
  it.each([
    ['one process', '1'],
    ['two workers', '2'],
  ])('%s: stopped with SIGTERM the moment the last answer is in', { timeout: 120_000 }, async (_what, workers) => {
    const server = await start({ WORKERS: workers });
    try {
      const run = `stop${workers}`;
      const ids = await burst(server, run);
      const exited = once(server.child, 'exit');
      server.child.kill('SIGTERM');
      const [code] = await exited;
      expect(code).toBe(0);
      expect(loggedIds(server, run).size).toBe(ids.length);
      expect(linesOf(server).at(-1)!.msg).toBe('stopped');
    } finally {
      server.kill();
    }
  });

  it('one process: crashed by an exception nothing caught; the crash is a line of its own', { timeout: 120_000 }, async () => {
    const server = await start({}, ['--import', CRASH_ON_SIGUSR2]);
    try {
      const ids = await burst(server, 'crash');
      const exited = once(server.child, 'exit');
      server.child.kill('SIGUSR2');
      const [code] = await exited;
      // Node ends the process as it ends any that crashes: code 1, the error on stderr.
      expect(code).toBe(1);
      expect(server.stderr()).toContain('a crash for the test');
      expect(loggedIds(server, 'crash').size).toBe(ids.length);
      const crashed = linesOf(server).filter((l) => l.msg === 'crashed');
      expect(crashed.map((l) => [l.level, l.err?.message, l.origin])).toEqual([[60, 'a crash for the test', 'uncaughtException']]);
    } finally {
      server.kill();
    }
  });
});
