/** The real scripts: the built service starts on the embedded content, serves a page and the API, and writes nothing to stderr. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('smoke: node dist/server/index.js', () => {
  it('serves the home page and the API from the embedded content, with empty stderr', async () => {
    expect(existsSync('dist/server/index.js'), 'run `npm run build` first').toBe(true);
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const child = spawn(process.execPath, ['dist/server/index.js'], {
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', UPSTREAM_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    try {
      while (!stdout.includes('"listening"')) {
        if (child.exitCode !== null) throw new Error(`exited early: ${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(stdout).toContain('embedded content API started');
      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>首页</title>');
      const api = await fetch(`http://127.0.0.1:${port}/api/contact-us`);
      expect(api.status).toBe(200);
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
      expect(stderr).toBe('');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('refuses a bad configuration with a message naming the variable', async () => {
    const child = spawn(process.execPath, ['dist/server/index.js'], {
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
