/** The built service as a process: SIGTERM lets in-flight requests finish, then it exits. */
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { encodeRef, mediaPath } from '../shared/media-url.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBuiltServer } from './support/built-server.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

describe('graceful shutdown', () => {
  let upstream: TestUpstream;
  beforeAll(async () => {
    upstream = await startTestUpstream();
  });
  afterAll(() => upstream.stop());

  it('finishes in-flight requests on SIGTERM, refuses new ones and exits 0', async () => {
    // The search index waits for its first query, so that the only calls are the ten requests'.
    const server = await startBuiltServer({ UPSTREAM_URL: upstream.url, SEARCH_INDEX: 'first-use' });
    try {
      upstream.delayMs = 800;
      upstream.calls.clear();
      const inFlight = Array.from({ length: 10 }, (_, i) => fetch(`${server.url}/api/news?page=${i + 1}`));
      // In flight: every request has reached the service and made its call to the content API.
      await expect.poll(() => upstream.totalCalls(), { timeout: 5_000, message: 'the ten requests to reach the content API' }).toBe(10);
      // Listened for before the signal: the process may exit while the answers below are read.
      const exited = once(server.child, 'exit');
      const stoppedAt = Date.now();
      server.child.kill('SIGTERM');
      for (const res of await Promise.all(inFlight)) {
        expect(res.status).toBe(200);
        expect((await res.json()).data.page).toBeGreaterThan(0);
      }
      const [code] = await exited;
      // Within the shutdown bound (SHUTDOWN_TIMEOUT_MS, 10 s by default).
      expect(Date.now() - stoppedAt).toBeLessThan(10_000);
      expect(code).toBe(0);
      await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
      expect(server.stdout()).toContain('shutting down');
      // Log lines still gathered in memory at exit are written out.
      const lines = server
        .stdout()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { msg: string; url?: string; status?: number });
      expect(lines.filter((l) => l.msg === 'request' && l.url?.startsWith('/api/news') && l.status === 200)).toHaveLength(10);
      expect(lines.at(-1)!.msg).toBe('stopped');
      expect(server.stderr()).toBe('');
    } finally {
      server.kill();
      upstream.delayMs = 0;
    }
  });

  it('does not wait for a picture still being fetched in the background once its visitor has gone', async () => {
    // A media origin that takes connections and never answers: the fetch runs its whole budget (10 s).
    const held: Socket[] = [];
    const origin = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    const originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    const server = await startBuiltServer({ UPSTREAM_URL: upstream.url, SEARCH_INDEX: 'first-use', MEDIA_ORIGINS: originUrl });
    try {
      // The visitor leaves; the service's fetch of the original goes on, for the next who asks.
      const address = mediaPath(encodeRef(`${originUrl}/uploads/photo.jpg`), '0', 384);
      await fetch(server.url + address, { signal: AbortSignal.timeout(300) }).catch(() => undefined);
      await expect.poll(() => held.length, { timeout: 5_000, message: 'the original to be asked for' }).toBeGreaterThan(0);
      // Its leaving logged first: else that line, written as the service notices the closed
      // connection, may come after the last one this test reads.
      await expect
        .poll(() => server.stdout(), { timeout: 5_000, message: "the visitor's leaving to be logged" })
        .toContain('"status":"aborted"');
      const exited = once(server.child, 'exit');
      const stoppedAt = Date.now();
      server.child.kill('SIGTERM');
      const [code] = await exited;
      // Well within the fetch's own budget: it was stopped, not waited for.
      expect(Date.now() - stoppedAt).toBeLessThan(5_000);
      expect(code).toBe(0);
      expect(server.stdout().trim().split('\n').at(-1)).toMatch(/"msg":"stopped"/);
    } finally {
      server.kill();
      for (const socket of held) socket.destroy();
      origin.close();
    }
  });
});
