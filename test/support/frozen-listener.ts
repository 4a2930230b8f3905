/**
 * A loopback address where connections never complete: a listener with a backlog of one in a
 * process that is then frozen (SIGSTOP), its backlog filled, so that further SYNs go unanswered.
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { expect, vi } from 'vitest';

export interface FrozenListener {
  url: string;
  close(): void;
}

export async function startFrozenListener(): Promise<FrozenListener> {
  const child = spawn(
    process.execPath,
    ['-e', "require('net').createServer(()=>{}).listen({port:0,host:'127.0.0.1',backlog:1},function(){console.log(this.address().port)})"],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = Number(await new Promise<string>((resolve) => child.stdout.once('data', (d) => resolve(String(d).trim()))));
  child.kill('SIGSTOP');
  // Its queue of one (the kernel takes backlog + 1) is full once two connections are made: the rest hang.
  let connected = 0;
  const fillers = Array.from({ length: 4 }, () =>
    net
      .connect(port, '127.0.0.1')
      .on('connect', () => connected++)
      .on('error', () => {}),
  );
  await vi.waitFor(() => expect(connected).toBeGreaterThanOrEqual(2), { timeout: 5_000, message: 'the frozen listener’s queue to fill' });
  return {
    url: `http://127.0.0.1:${port}`,
    close() {
      for (const s of fillers) s.destroy();
      child.kill('SIGKILL');
    },
  };
}
