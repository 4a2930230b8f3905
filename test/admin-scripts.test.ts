/**
 * What an editor or operator runs by hand against the built site on the embedded content:
 * `npm run edit` changes an item in the embedded content API, which tells the site; `npm run
 * purge` purges by tag, path or everything. Both say what went wrong when used wrongly.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { startBuiltServer } from './support/built-server.js';
import { freePort } from './support/redis-server.js';

const TSX = 'node_modules/tsx/dist/cli.mjs';

function run(script: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [TSX, script, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm run edit and npm run purge', () => {
  it('an edit is shown by the site at once; a purge by tag, by path and of everything answers 200', async () => {
    const port = await freePort();
    const env = { WEBHOOK_SECRET: 'scripts-test-webhook-secret', PURGE_TOKEN: 'scripts-test-purge-token', EMBEDDED_API_PORT: String(port) };
    const server = await startBuiltServer({ UPSTREAM_URL: '', ...env });
    try {
      const before = (await (await fetch(`${server.url}/api/experts/3`)).json()) as { data: { name: string } };
      const edited = await run('scripts/edit.ts', ['expert', '3', '--name', '王新名'], env);
      expect(edited.code, edited.stderr).toBe(0);
      expect(edited.stdout).toMatch(/^200 /);
      expect(edited.stdout).toContain('"status": 200');
      const after = (await (await fetch(`${server.url}/api/experts/3`)).json()) as { data: { name: string } };
      expect(before.data.name).not.toBe('王新名');
      expect(after.data.name).toBe('王新名');

      const site = { ...env, SITE_URL: server.url };
      for (const args of [['--tag', 'expert:3'], ['--path', '/zjxz/detail?id=3', '--path', '/api/experts/3'], ['--all']]) {
        const purged = await run('scripts/purge.ts', args, site);
        expect(purged.code, `${args.join(' ')}: ${purged.stdout}${purged.stderr}`).toBe(0);
        expect(purged.stdout).toMatch(/^200 \{"purged"/);
      }
    } finally {
      server.kill();
    }
  });

  it('used wrongly, they say how to use them and change nothing', async () => {
    const noToken = await run('scripts/purge.ts', ['--all'], { PURGE_TOKEN: '' });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(/^usage: PURGE_TOKEN=/);
    const twoKinds = await run('scripts/purge.ts', ['--all', '--tag', 'x'], { PURGE_TOKEN: 'x'.repeat(16) });
    expect(twoKinds.code).toBe(2);
    const noFields = await run('scripts/edit.ts', ['news', '1'], { WEBHOOK_SECRET: 'x'.repeat(16), EMBEDDED_API_PORT: '1' });
    expect(noFields.code).toBe(2);
    expect(noFields.stderr).toMatch(/^usage: WEBHOOK_SECRET=/);
  });
});
