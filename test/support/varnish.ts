/**
 * A real varnishd (Debian's varnish and varnish-modules; .ci/run installs them) on a free
 * loopback port with the shipped VCL (deploy/varnish/default.vcl), its backend pointed at a
 * service under test. Its own working directory, in the foreground, stopped by pid.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { vi } from 'vitest';
import { freePort } from './redis-server.js';

const run = promisify(execFile);

export interface Varnish {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export const SHIPPED_VCL = 'deploy/varnish/default.vcl';

/**
 * The backend's health probes, as varnishstat's `happy` bitmap: the newest result in the lowest
 * bit, 1 for a good probe, shifted up by each probe; it starts as a single 1 (the probe's
 * `.initial`, one below its threshold), so a value of 8 or more means three probes or more.
 */
async function probeResults(workDir: string): Promise<number> {
  const { stdout } = await run('varnishstat', ['-n', workDir, '-1', '-j', '-f', 'VBE.*.happy']).catch(() => ({ stdout: '{}' }));
  const counters = (JSON.parse(stdout) as { counters?: Record<string, { value: number }> }).counters ?? {};
  return Object.values(counters)[0]?.value ?? 0;
}

/** `port`: where it listens (a free one when not given, e.g. to name it in EDGE_PURGE_URLS first). */
export async function startVarnish(backendPort: number, port?: number): Promise<Varnish> {
  port ??= await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'varnish-'));
  const vcl = readFileSync(SHIPPED_VCL, 'utf8').replace('.port = "3000";', `.port = "${backendPort}";`);
  if (!vcl.includes(`.port = "${backendPort}";`)) throw new Error(`${SHIPPED_VCL} no longer names port 3000`);
  writeFileSync(join(dir, 'site.vcl'), vcl);
  // Started as root, varnishd reads it as its own unprivileged user.
  chmodSync(dir, 0o755);
  const child = spawn(
    'varnishd',
    [
      '-F',
      '-n',
      join(dir, 'work'),
      '-a',
      `127.0.0.1:${port}`,
      '-T',
      'none',
      '-f',
      join(dir, 'site.vcl'),
      '-s',
      'malloc,64m',
      '-p',
      'vsl_space=1M',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit');
  const url = `http://127.0.0.1:${port}`;
  // Up when it answers, and the probe has found the backend healthy (a purged copy is then never served).
  const answers = () =>
    fetch(`${url}/healthz`).then(
      (res) => res.ok,
      () => false,
    );
  // Then until the health probe's window (three probes, a second apart) holds three good results,
  // so that one slow probe on a busy machine does not make the backend sick mid-test.
  const windowGood = async () => {
    const happy = await probeResults(join(dir, 'work'));
    return happy >= 0b1000 && (happy & 0b111) === 0b111;
  };
  await vi
    .waitUntil(
      async () => {
        if (child.exitCode !== null) throw new Error('varnishd exited');
        return (await answers()) && (await windowGood());
      },
      // Compiling the VCL alone (with cc) takes over 10 s on a machine busy with other suites.
      { timeout: 60_000, interval: 100, message: 'varnishd to answer with a healthy backend' },
    )
    .catch((error: unknown) => {
      child.kill('SIGKILL');
      throw new Error(
        `varnishd did not start (install Debian's varnish and varnish-modules; .ci/run does): ${String(error)}: ${stderr.slice(-2000)}`,
      );
    });
  return {
    url,
    port,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
