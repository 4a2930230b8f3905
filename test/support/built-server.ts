/** The production build run as its own process (`node dist/server/index.js`), as `npm start` runs it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';

export const BUILT_SERVER = 'dist/server/index.js';

export interface BuiltServer {
  child: ChildProcess;
  url: string;
  stdout(): string;
  stderr(): string;
  /** SIGKILL if it is still running (for `finally`). */
  kill(): void;
}

/** Start it on a free-looking loopback port and wait for its "listening" line. */
export async function startBuiltServer(env: Record<string, string>): Promise<BuiltServer> {
  if (!existsSync(BUILT_SERVER)) throw new Error('run `npm run build` first');
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const child = spawn(process.execPath, [BUILT_SERVER], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const server: BuiltServer = {
    child,
    url: `http://127.0.0.1:${port}`,
    stdout: () => stdout,
    stderr: () => stderr,
    kill: () => {
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
  while (!stdout.includes('"listening"')) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return server;
}
