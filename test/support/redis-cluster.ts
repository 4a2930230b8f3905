/**
 * A real Redis Cluster (Debian's redis-server) of three masters on free loopback ports, for one
 * test file: each node its own process with its files in a temporary directory, joined by
 * `redis-cli --cluster create`, stopped by pid.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, vi } from 'vitest';
import { freePort } from './redis-server.js';

const run = promisify(execFile);

export interface RedisCluster {
  /** One node's address; a cluster client finds the others from it. */
  urls: string[];
  stop(): Promise<void>;
}

async function clusterState(port: number): Promise<string> {
  const { stdout } = await run('redis-cli', ['-p', String(port), 'cluster', 'info']).catch(() => ({ stdout: '' }));
  return /cluster_state:(\w+)/.exec(stdout)?.[1] ?? '';
}

export async function startRedisCluster(nodes = 3): Promise<RedisCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'redis-cluster-'));
  const children: ChildProcess[] = [];
  const ports: number[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = once(child, 'exit');
        child.kill('SIGKILL');
        await exited;
      }),
    );
    await rm(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < nodes; i++) {
      // The cluster bus gets a free port of its own (by default it is the port + 10000, which may be taken or past 65535).
      const [port, busPort] = [await freePort(), await freePort()];
      const child = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--cluster-port',
          String(busPort),
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(dir, `nodes-${port}.conf`),
          '--dir',
          dir,
          '--save',
          '',
          '--appendonly',
          'no',
          '--daemonize',
          'no',
          '--loglevel',
          'warning',
        ],
        { stdio: 'ignore' },
      );
      child.once('error', (error) => {
        throw new Error(`redis-server could not be started (install Debian's redis-server; .ci/run does): ${error.message}`);
      });
      children.push(child);
      ports.push(port);
    }
    await vi.waitFor(async () => expect(await Promise.all(ports.map(clusterState))).not.toContain(''), {
      timeout: 5_000,
      message: 'the cluster nodes to start',
    });
    await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes']);
    await vi.waitFor(async () => expect(await Promise.all(ports.map(clusterState))).toEqual(ports.map(() => 'ok')), {
      timeout: 15_000,
      message: 'the cluster to cover every slot',
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { urls: ports.map((p) => `redis://127.0.0.1:${p}`), stop };
}
