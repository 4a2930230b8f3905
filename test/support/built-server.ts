/** The production build run as its own process (`node dist/server/index.js`), as `npm start` runs it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { demoMediaDir } from './demo-media-dir.js';

export const BUILT_SERVER = 'dist/server/index.js';

export interface BuiltServer {
  child: ChildProcess;
  url: string;
  stdout(): string;
  stderr(): string;
  /** SIGKILL to it and to any worker it started, if still running (for `finally`). */
  kill(): void;
}

/** Start it on a port the system picks and wait for its "listening" line, which names the URL (and for every worker's). */
export async function startBuiltServer(env: Record<string, string>, nodeArgs: string[] = []): Promise<BuiltServer> {
  if (!existsSync(BUILT_SERVER)) throw new Error('run `npm run build` first');
  const child = spawn(process.execPath, [...nodeArgs, BUILT_SERVER], {
    // No shedding for lag, as in start-service.ts: a machine busy with other suites lags past
    // 200 ms and would refuse the misses these tests count on (shedding has its own tests). On the
    // demo content, the run's media cache directory, as in start-service.ts.
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SHED_EVENT_LOOP_LAG_MS: '0',
      ...demoMediaDir(env),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that kill() reaches its workers too: a worker that outlives a
    // killed primary would otherwise run on after the test.
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  // With workers, the primary says "listening" when the first one does: wait for them all.
  const workers = Number(env.WORKERS ?? 1);
  const listening = () =>
    stdout.includes('"listening"') && (workers <= 1 || (stdout.match(/"msg":"worker listening"/g)?.length ?? 0) >= workers);
  await new Promise<void>((resolve, reject) => {
    const onData = () => {
      if (!listening()) return;
      child.off('exit', onExit);
      child.stdout.off('data', onData);
      resolve();
    };
    const onExit = () => reject(new Error(`server exited early: ${stderr}`));
    child.once('exit', onExit);
    child.stdout.on('data', onData);
  });
  const line = stdout.split('\n').find((l) => l.includes('"listening"'))!;
  return {
    child,
    url: (JSON.parse(line) as { url: string }).url,
    stdout: () => stdout,
    stderr: () => stderr,
    kill: () => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch (error) {
        // ESRCH: the group is gone (the server and its workers have all exited).
        if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
      }
    },
  };
}
