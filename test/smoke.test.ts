/** The real scripts: the built service starts on the embedded content, serves a page and the API, and writes nothing to stderr. */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { BUILT_SERVER, startBuiltServer } from './support/built-server.js';
import runtime from '../scripts/node-runtime/package.json' with { type: 'json' };

const MAJOR = runtime.version.split('.')[0]!;

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
      await expect
        .poll(() => server.stdout(), { timeout: 5_000, message: 'the request line of the last request' })
        .toContain('"url":"/api/contact-us"');
      server.child.kill('SIGTERM');
      const [code] = await once(server.child, 'exit');
      // What it said first, so that an exit with an error shows the error.
      expect(server.stderr()).toBe('');
      const errorLines = server
        .stdout()
        .split('\n')
        .filter((line) => /"level":(50|60)/.test(line));
      expect(code, errorLines.join('\n')).toBe(0);
    } finally {
      server.kill();
    }
  });

  it('runs on the pinned Node and says so in /metrics', async () => {
    const server = await startBuiltServer({ UPSTREAM_URL: '', NODE_ENV: 'production' });
    try {
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      expect(metrics).toContain(`nodejs_version_info{version="v${runtime.version}",major="${MAJOR}"`);
    } finally {
      server.kill();
    }
  });

  it('at a terminal, prints one plain line saying where the site is, besides the JSON logs', () => {
    // `script` gives the service a terminal for its standard output, as `npm start` in a shell does.
    const out = spawnSync('script', ['-qec', `PORT=0 timeout -s INT 3 ${process.execPath} ${BUILT_SERVER}`, '/dev/null'], {
      env: { ...process.env, UPSTREAM_URL: '', LOG_LEVEL: 'info' },
      encoding: 'utf8',
    }).stdout;
    expect(out).toMatch(new RegExp(`明瞳眼科 website: http://localhost:\\d+ {2}\\(embedded demo content, Node v${MAJOR}\\.`));
    expect(out).toContain('"msg":"listening"');
  });

  it('refuses to start on an older Node, saying which it needs and how to get it', () => {
    const expectRefusal = (run: ReturnType<typeof spawnSync>) => {
      expect(run.status).toBe(1);
      expect(String(run.stderr)).toContain(`needs Node.js ${MAJOR}`);
      expect(String(run.stderr)).toContain('npm start');
      expect(String(run.stdout)).toBe('');
    };
    // This Node, made to say it is Node 20.
    const older = 'data:text/javascript,Object.defineProperty(process.versions,"node",{value:"20.20.2"})';
    expectRefusal(spawnSync(process.execPath, ['--import', older, BUILT_SERVER], { encoding: 'utf8' }));
    // And the machine's own Node, where it is an older one (Node 20 on the machines here).
    const machine = execFileSync('sh', ['-c', 'command -v node || true'], {
      env: { PATH: '/usr/local/bin:/usr/bin:/bin' },
      encoding: 'utf8',
    }).trim();
    const machineMajor = machine
      ? spawnSync(machine, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).stdout.trim()
      : '';
    if (machineMajor && Number(machineMajor) < Number(MAJOR)) expectRefusal(spawnSync(machine, [BUILT_SERVER], { encoding: 'utf8' }));
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

describe('smoke: node dist/server/demo-content-api.js', () => {
  it('serves the embedded content alone where it is told, and stops on SIGTERM', async () => {
    const child = spawn(process.execPath, ['dist/server/demo-content-api.js'], {
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += d));
      await expect.poll(() => stdout, { timeout: 5_000, message: 'the content API to listen' }).toContain('content API listening');
      const { url } = JSON.parse(stdout.split('\n').find((l) => l.includes('content API listening'))!) as { url: string };
      const answer = (await (await fetch(`${url}/api/contact-us`)).json()) as { data: { phone: string } };
      expect(answer.data.phone).toBeTruthy();
      // Editing is off without a secret.
      expect((await fetch(`${url}/admin/items/news/1`, { method: 'POST', body: '{}' })).status).toBe(404);
      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('refuses a bad configuration', () => {
    const run = spawnSync(process.execPath, ['dist/server/demo-content-api.js'], { env: { ...process.env, PORT: 'x' }, encoding: 'utf8' });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^invalid configuration: PORT: /);
  });
});
