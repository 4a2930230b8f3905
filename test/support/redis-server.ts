/**
 * A real redis-server (Debian's package; .ci/run installs it) on a free loopback port, for one
 * test file: no persistence, its own process, stopped by pid. It can be killed, paused (a Redis
 * that answers nothing) and started again on the same port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import { pino } from 'pino';
import { expect, vi } from 'vitest';
import { createMetrics } from '../../server/observability/metrics.js';
import { RedisLink } from '../../server/reliability/redis-link.js';

export interface RedisServer {
  url: string;
  port: number;
  /** Killed at once (SIGKILL): every connection drops. */
  kill(): Promise<void>;
  /** Stopped (SIGSTOP): connections stay open but nothing is answered, until resume(). */
  pause(): void;
  resume(): void;
  /** Started again on the same port, empty. */
  restart(): Promise<void>;
  /** Running and not paused. */
  readonly up: boolean;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

export async function startRedis(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function launch(): Promise<void> {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning'],
      { stdio: 'ignore' },
    );
    child.once('error', (error) => {
      throw new Error(`redis-server could not be started (install Debian's redis-server; .ci/run does): ${error.message}`);
    });
    await vi.waitFor(async () => expect(await accepts(port)).toBe(true), {
      timeout: 5_000,
      interval: 25,
      message: `redis-server to listen on port ${port}`,
    });
  }

  async function kill(): Promise<void> {
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exited;
  }

  await launch();
  let paused = false;
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill,
    pause: () => {
      paused = true;
      child?.kill('SIGSTOP');
    },
    resume: () => {
      paused = false;
      child?.kill('SIGCONT');
    },
    get up() {
      return !paused && child !== undefined && child.exitCode === null && child.signalCode === null;
    },
    async restart() {
      await kill();
      await launch();
    },
    stop: kill,
  };
}

/** A link to `redis` as the service makes one (logs silent, metrics of its own), started and connected. */
export async function startedRedisLink(redis: RedisServer, budgetMs = 1_000): Promise<RedisLink> {
  const link = new RedisLink({
    url: redis.url,
    budgetMs,
    log: pino({ level: 'silent' }),
    metrics: createMetrics({ defaultMetrics: false }),
  });
  link.start();
  await vi.waitFor(() => expect(link.available).toBe(true), { timeout: 5_000, message: 'the link to Redis' });
  return link;
}
