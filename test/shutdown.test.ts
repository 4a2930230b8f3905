/** The built service as a process: SIGTERM lets an in-flight request finish, then it exits. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

const SERVER = 'dist/server/index.js';

describe('graceful shutdown', () => {
  let upstream: TestUpstream;
  beforeAll(async () => {
    expect(existsSync(SERVER), 'run `npm run build` first').toBe(true);
    upstream = await startTestUpstream();
  });
  afterAll(() => upstream.stop());

  it('finishes in-flight requests on SIGTERM, refuses new ones and exits 0', async () => {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const child = spawn(process.execPath, [SERVER], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', UPSTREAM_URL: upstream.url, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    try {
      while (!stdout.includes('"listening"')) {
        if (child.exitCode !== null) throw new Error(`server exited early: ${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      upstream.delayMs = 800;
      const inFlight = Array.from({ length: 10 }, (_, i) => fetch(`http://127.0.0.1:${port}/api/news?page=${i + 1}`));
      await new Promise((r) => setTimeout(r, 200));
      const stoppedAt = Date.now();
      child.kill('SIGTERM');
      for (const res of await Promise.all(inFlight)) {
        expect(res.status).toBe(200);
        expect((await res.json()).data.page).toBeGreaterThan(0);
      }
      const [code] = await once(child, 'exit');
      // Within the shutdown bound (SHUTDOWN_TIMEOUT_MS, 10 s by default).
      expect(Date.now() - stoppedAt).toBeLessThan(10_000);
      expect(code).toBe(0);
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
      expect(stdout).toContain('shutting down');
      expect(stderr).toBe('');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      upstream.delayMs = 0;
    }
  });
});
