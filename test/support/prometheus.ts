/**
 * Debian's Prometheus tools for the monitoring tests: promtool run once, and a real prometheus
 * server on a free loopback port with its own temporary config and storage, stopped by pid.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { freePort } from './redis-server.js';

export interface ToolRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function promtool(...args: string[]): ToolRun {
  const run = spawnSync('promtool', args, { encoding: 'utf8', timeout: 30_000 });
  if (run.error) throw new Error(`promtool could not be run (install Debian's prometheus): ${run.error.message}`);
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** One result of an instant query (`/api/v1/query`, resultType vector). */
export interface VectorSample {
  metric: Record<string, string>;
  value: [number, string];
}

export interface PrometheusServer {
  url: string;
  /** An instant query; throws with Prometheus's error when the query is refused. */
  query(expr: string): Promise<VectorSample[]>;
  /** `/api/v1/rules`: the rule groups it loaded. */
  rules(): Promise<{ name: string; rules: Record<string, unknown>[] }[]>;
  /** Its output so far (for a failure's message). */
  log(): string;
  stop(): Promise<void>;
}

export async function startPrometheus(options: {
  /** host:port addresses scraped as job "site". */
  targets: readonly string[];
  ruleFiles?: readonly string[];
  intervalSeconds?: number;
}): Promise<PrometheusServer> {
  const dir = await mkdtemp(join(tmpdir(), 'prometheus-test-'));
  const interval = `${options.intervalSeconds ?? 1}s`;
  const config = {
    global: { scrape_interval: interval, evaluation_interval: interval, scrape_timeout: interval },
    rule_files: options.ruleFiles ?? [],
    scrape_configs: [{ job_name: 'site', metrics_path: '/metrics', static_configs: [{ targets: options.targets }] }],
  };
  // JSON is YAML: no YAML writer needed.
  await writeFile(join(dir, 'prometheus.yml'), JSON.stringify(config, null, 2));
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.on('data', (d) => (output += String(d)));
  child.stderr!.on('data', (d) => (output += String(d)));
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (error) => reject(new Error(`prometheus could not be started (install Debian's prometheus): ${error.message}`)));
  });
  const url = `http://127.0.0.1:${port}`;

  async function stop(): Promise<void> {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await rm(dir, { recursive: true, force: true });
  }

  try {
    await spawned;
    // Until it says it is ready; at once if it exits.
    await vi
      .waitUntil(
        async () => {
          if (child.exitCode !== null) throw new Error('prometheus exited at start');
          return (await fetch(`${url}/-/ready`).catch(() => undefined))?.ok;
        },
        { timeout: 20_000, interval: 100, message: 'prometheus to be ready' },
      )
      .catch((error: unknown) => {
        throw new Error(`${String(error)}: ${output}`);
      });
  } catch (error) {
    await stop();
    throw error;
  }

  async function api<T>(path: string): Promise<T> {
    const res = await fetch(url + path);
    const body = (await res.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`prometheus ${path}: ${body.error ?? res.status}`);
    return body.data;
  }

  return {
    url,
    async query(expr) {
      const data = await api<{ resultType: string; result: VectorSample[] }>(`/api/v1/query?query=${encodeURIComponent(expr)}`);
      if (data.resultType !== 'vector') throw new Error(`expected a vector from ${expr}, got ${data.resultType}`);
      return data.result;
    },
    async rules() {
      return (await api<{ groups: { name: string; rules: Record<string, unknown>[] }[] }>('/api/v1/rules')).groups;
    },
    log: () => output,
    stop,
  };
}
