/** The real scripts: the built service starts on the embedded content, serves a page and the API, and writes nothing to stderr. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { BUILT_SERVER, startBuiltServer } from './support/built-server.js';

describe('smoke: node dist/server/index.js', () => {
  it('serves the home page and the API from the embedded content, with empty stderr', async () => {
    const server = await startBuiltServer({ UPSTREAM_URL: '', NODE_ENV: 'production' });
    try {
      expect(server.stdout()).toContain('embedded content API started');
      const page = await fetch(`${server.url}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>首页</title>');
      expect((await fetch(`${server.url}/zjxz/detail?id=1`)).status).toBe(200);
      const api = await fetch(`${server.url}/api/contact-us`);
      expect(api.status).toBe(200);
      // Log lines are written in batches; a quiet service still writes each within a moment.
      for (let i = 0; i < 40 && !server.stdout().includes('"url":"/api/contact-us"'); i++) await new Promise((r) => setTimeout(r, 25));
      expect(server.stdout()).toContain('"url":"/api/contact-us"');
      server.child.kill('SIGTERM');
      const [code] = await once(server.child, 'exit');
      expect(code).toBe(0);
      expect(server.stderr()).toBe('');
    } finally {
      server.kill();
    }
  });

  it('refuses a bad configuration with a message naming the variable', async () => {
    const child = spawn(process.execPath, [BUILT_SERVER], {
      env: { ...process.env, PORT: 'eighty', UPSTREAM_TIMEOUT_MS: '-5' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const [code] = await once(child, 'exit');
    expect(code).toBe(2);
    expect(stderr).toContain('PORT');
    expect(stderr).toContain('UPSTREAM_TIMEOUT_MS');
  });
});
