// Processes of a benchmark on loopback: started with their output in a file, stopped when the
// benchmark exits, whatever way it exits.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = new URL('../..', import.meta.url).pathname;

export function ensureWrk(): void {
  if (existsSync('/usr/bin/wrk')) return;
  console.log('installing wrk from Debian packages…');
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  execFileSync('apt-get', ['install', '-y', '-qq', 'wrk'], { stdio: 'inherit' });
}

export function ensureBuild(): void {
  if (existsSync(`${ROOT}dist/server/index.js`) && existsSync(`${ROOT}dist/client/.vite/manifest.json`)) return;
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

let logFiles = 0;

/** Children still running: killed if this process exits early (an error, Ctrl-C, SIGTERM). */
const live = new Set<ChildProcess>();
/** Temporary files of this run, deleted when it exits. */
const temporary = new Set<string>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
  for (const file of temporary) rmSync(file, { force: true, recursive: true });
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

/** A path in the temporary directory (a file or a folder), deleted when this process exits. */
export function tempPath(name: string): string {
  const file = join(tmpdir(), `bench-${process.pid}-${name}`);
  temporary.add(file);
  return file;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface NodeOptions {
  env?: Record<string, string | undefined>;
  /** Text whose appearance on the output says the process is ready… */
  ready?: string;
  /** …or a check that does. */
  probe?: () => Promise<boolean>;
  timeoutMs?: number;
  onLine?: (line: string) => void;
  nodeArgs?: string[];
}

export interface NodeProcess {
  child: ChildProcess;
  /** The output until it was ready. */
  output: string;
  stop(): Promise<void>;
  logFile: string;
}

/** Reads the lines added to a file since the last call (the last, unfinished one kept for the next). */
function lineReader(file: string, onLine: (line: string) => void): () => void {
  let offset = 0;
  let partial = '';
  return () => {
    let text: string;
    try {
      const reader = openSync(file, 'r');
      try {
        const size = fstatSync(reader).size;
        if (size <= offset) return;
        const buf = Buffer.alloc(size - offset);
        readSync(reader, buf, 0, buf.length, offset);
        offset = size;
        text = buf.toString('utf8');
      } finally {
        closeSync(reader);
      }
    } catch {
      return;
    }
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    if (partial.length > 1_000_000) partial = '';
    for (const line of lines) onLine(line);
  };
}

/**
 * Start a node process and wait until `ready` appears on its output (or `probe` says so). The
 * output goes to a file, never to a pipe: a pipe that this process does not drain while wrk runs
 * synchronously would block the child's synchronous logging (pino waits in atomic-sleep on a full
 * pipe) and distort every figure. `onLine` sees every output line for the process's whole life
 * (read from the file every 200 ms and once more after exit); the file is deleted on stop.
 */
export function startNode(args: string[], options: NodeOptions = {}): Promise<NodeProcess> {
  const { nodeArgs = [], ...rest } = options;
  return startProcess(process.execPath, [...nodeArgs, ...args], rest);
}

/** Any program (nginx, say) started and stopped as startNode starts and stops node. */
export async function startProcess(command: string, args: string[], options: Omit<NodeOptions, 'nodeArgs'> = {}): Promise<NodeProcess> {
  // A minute to start: on the shared machine, busy with other work, the service has taken 14 s.
  const { env = {}, ready, probe, timeoutMs = 60_000, onLine } = options;
  const name = (command === process.execPath ? args.find((a) => !a.startsWith('-')) : command)?.split('/').pop();
  const file = tempPath(`${++logFiles}-${name}.log`);
  const fd = openSync(file, 'w');
  let child: ChildProcess;
  try {
    child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] });
  } finally {
    closeSync(fd);
  }
  live.add(child);
  child.once('exit', () => live.delete(child));
  const tail = onLine ? lineReader(file, onLine) : () => undefined;
  const tailer = onLine ? setInterval(tail, 200) : undefined;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(force);
      }
      clearInterval(tailer);
      tail();
      rmSync(file, { force: true });
    })());
  const read = () => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  };
  const started = Date.now();
  let out = '';
  try {
    while (probe ? !(await probe()) : !(out = read()).includes(ready ?? '')) {
      if (probe) out = read();
      if (child.exitCode !== null) throw new Error(`${name} exited: ${out}`);
      if (Date.now() - started > timeoutMs) throw new Error(`${name} did not start: ${out}`);
      await sleep(50);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, output: out, stop, logFile: file };
}

/** The JSON log lines of a pino output, parsed (other lines skipped). */
export function logLines(output: string): Record<string, unknown>[] {
  return output.split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

/** A port free on 127.0.0.1 right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface Helper extends NodeProcess {
  port: number;
  url: string;
}

/**
 * Start one of the bench's own node:http servers; it prints `ready <port>` once listening. One in
 * TypeScript imports packages and Node's modules only, no TypeScript of the project: Node runs it
 * with its types stripped, and no loader sits in a baseline's process.
 */
export async function startHelper(script: string, args: (string | number)[] = [], env: Record<string, string> = {}): Promise<Helper> {
  const name = script.split('/').pop();
  let ready = false;
  // After `ready`, whatever a helper prints (a crash, above all) is shown.
  const onLine = (line: string) => {
    if (ready && line.trim() && !line.startsWith('ready ')) process.stderr.write(`[${name}] ${line}\n`);
  };
  const proc = await startNode([script, ...args.map(String)], { ready: 'ready', env: { NODE_ENV: 'production', ...env }, onLine });
  ready = true;
  const port = Number(/ready (\d+)/.exec(proc.output)?.[1]);
  if (!port) {
    await proc.stop();
    throw new Error(`${script} printed no port: ${proc.output}`);
  }
  return { ...proc, port, url: `http://127.0.0.1:${port}` };
}

/** A process's resident memory now, in MiB (NaN once it has exited). */
export function rssMiB(pid: number | undefined): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
  } catch {
    return NaN;
  }
}

/** CPU seconds a process has used (user and system), from /proc. */
function cpuSeconds(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Resolves once a process has used less than 2 % of a core over half a second (at most
 * `timeoutMs`): what a start or a first render set going in the background (the search index,
 * images described, variants made ahead) is done, and a measurement sees the steady state.
 */
export async function settled(pid: number | undefined, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let before = cpuSeconds(pid);
  while (Date.now() < deadline) {
    await sleep(500);
    const now = cpuSeconds(pid);
    if (now - before < 0.01) return;
    before = now;
  }
}
