// The production build (dist/server/index.js) as a process of its own, measured from outside,
// and the other servers a benchmark puts beside it. The settings it starts with are the tests'
// (LIMITS_OFF); the tests run it in their own process (test/support/start-service.ts), a
// benchmark never: the load and the measured service would share one event loop.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { LIMITS_OFF } from '../../test/support/limits-off.js';
import { rawGet } from './http.js';
import { freePort, logLines, sleep, startNode, type NodeProcess } from './processes.js';

export interface ServiceOptions {
  env?: Record<string, string>;
  nodeArgs?: string[];
  onLine?: (line: string) => void;
  timeoutMs?: number;
}

export interface ServiceProcess extends NodeProcess {
  url: string;
  /** The content API it reads. */
  upstream: string | undefined;
  /** The embedded content API's URL when it started one. */
  embeddedUrl: string | undefined;
}

/**
 * Start the production service on a free loopback port (PORT=0), as one process (WORKERS=1)
 * unless `env` says otherwise: each figure compares one service process with one baseline process.
 */
export async function startService({ env: given = {}, nodeArgs = [], onLine, timeoutMs }: ServiceOptions = {}): Promise<ServiceProcess> {
  // The demo content unless a benchmark names an UPSTREAM_URL (which wins): production asks for it by name.
  const env: Record<string, string> = { WORKERS: '1', CONTENT: 'demo', ...LIMITS_OFF, ...given };
  const level = env.LOG_LEVEL ?? 'info';
  if (!['info', 'debug', 'trace'].includes(level)) {
    // No `listening` line at this level: a free port, and /healthz tells when it is up.
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const proc = await startNode(['dist/server/index.js'], {
      env: { NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1', ...env },
      probe: () =>
        rawGet(`${url}/healthz`).then(
          (r) => r.status === 200,
          () => false,
        ),
      nodeArgs,
      ...(onLine ? { onLine } : {}),
    });
    return { ...proc, url, upstream: env.UPSTREAM_URL, embeddedUrl: undefined };
  }
  const proc = await startNode(['dist/server/index.js'], {
    env: { NODE_ENV: 'production', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    ready: '"msg":"listening"',
    nodeArgs,
    ...(onLine ? { onLine } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  const lines = logLines(proc.output) as { msg?: string; url?: string; upstream?: string }[];
  const listening = lines.find((l) => l.msg === 'listening');
  if (!listening?.url) throw new Error(`the service said no URL: ${proc.output}`);
  const embedded = lines.find((l) => /embedded content API started/.test(l.msg ?? ''));
  return { ...proc, url: listening.url, upstream: listening.upstream, embeddedUrl: embedded?.url };
}

/** A redis-server (Debian's) on a free loopback port, stopped by pid. */
export async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  for (let i = 0; i < 200; i++) {
    try {
      await rawGet(`http://127.0.0.1:${port}`);
    } catch (error) {
      // Redis answers HTTP with a protocol error: the port is open once the error is not a refusal.
      if (!/ECONNREFUSED/.test(String((error as { cause?: unknown }).cause ?? error))) break;
    }
    await sleep(25);
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGKILL');
      await once(child, 'exit');
    },
  };
}

/** A content API in front of the embedded one (`target`) that answers after `delayMs` and counts calls per path and query. */
export async function countingUpstream(target: string, delayMs: number) {
  const calls = new Map<string, number>();
  const agent = new Agent({ connections: 64 });
  const server = createServer((req, res) => {
    const url = req.url ?? '/';
    calls.set(url, (calls.get(url) ?? 0) + 1);
    void (async () => {
      await sleep(delayMs);
      const answer = await request(target + url, { dispatcher: agent });
      const body = Buffer.from(await answer.body.arrayBuffer());
      res.writeHead(answer.statusCode, { 'content-type': 'application/json' }).end(body);
    })();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    async stop() {
      await new Promise((r) => server.close(r));
      await agent.close();
    },
  };
}
