/**
 * No fiction in production (issue 47): with NODE_ENV=production the built service serves the demo
 * content only when asked for it by name (CONTENT=demo, which `npm start` passes); with neither an
 * UPSTREAM_URL nor that, it refuses to start and says what to set.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { dirname } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import pkg from '../package.json' with { type: 'json' };
import { BUILT_SERVER } from './support/built-server.js';

/** The environment of a shell on this machine, with the pinned Node first on its PATH (as npm's scripts have it). */
const shellEnv = (env: Record<string, string>) => ({ ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}`, ...env });

describe('the content in production', () => {
  it('refuses to start with NODE_ENV=production and no UPSTREAM_URL, saying what to set, and starts nothing', () => {
    const run = spawnSync(process.execPath, [BUILT_SERVER], {
      env: shellEnv({ NODE_ENV: 'production', UPSTREAM_URL: '', CONTENT: '', PORT: '0', WORKERS: '1' }),
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(
      'invalid configuration:\n' +
        "  UPSTREAM_URL: must be set with NODE_ENV=production: the content API's address (e.g. http://content-api:4000); to serve the invented demo content instead, set CONTENT=demo\n",
    );
    expect(run.stdout).toBe('');
  });

  it('`npm start` (the build, then the command of `npm run serve`) serves the demo content with nothing else set', async () => {
    expect(pkg.scripts.start).toBe(`npm run build && ${pkg.scripts.serve}`);
    // The script's own command line, in a shell, as npm runs it; nothing but a free port added.
    const child = spawn('sh', ['-c', pkg.scripts.serve], {
      env: shellEnv({ PORT: '0', UPSTREAM_URL: '', CONTENT: '', WORKERS: '1' }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    try {
      await vi.waitFor(
        () => {
          if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${stderr}`);
          expect(stdout).toContain('"msg":"listening"');
        },
        { timeout: 30_000, interval: 50 },
      );
      const { url } = JSON.parse(stdout.split('\n').find((l) => l.includes('"msg":"listening"'))!) as { url: string };
      expect(stdout).toContain('no UPSTREAM_URL: embedded content API started');
      const contact = (await (await fetch(`${url}/api/contact-us`)).json()) as { data: { groupName: string } };
      expect(contact.data.groupName).toBe('明瞳眼科医疗集团');
    } finally {
      process.kill(-child.pid!, 'SIGTERM');
      await once(child, 'exit');
    }
    expect(stderr).toBe('');
  });
});
