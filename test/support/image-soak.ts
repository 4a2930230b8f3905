/**
 * The image under a memory limit (issue 49): the site's container run with `--memory` as a manifest
 * limits it, beside the demo content API, and the mixed load of ordinary traffic (mixed-load.ts)
 * driven at it; what the container did meanwhile (killed, restarted, its resident set) is read
 * from podman and from the site's process as the host sees it.
 */
import { readFileSync } from 'node:fs';
import { homePictureAddresses, mixedLoad, type MixedLoadReport } from './mixed-load.js';
import { podman, startPair } from './image-check.js';

export interface ImageSoak {
  /** The limit given to `podman run --memory`, in bytes. */
  limit: number;
  /** It answered /healthz, and a search (its index is built as it starts). */
  up: boolean;
  /** What the service read as its limit (`memory_limit_bytes` on /metrics), by source. */
  limitSeen: string;
  load: MixedLoadReport | undefined;
  /** The site's container after the load: still running, killed for memory, restarted, its exit code. */
  running: boolean;
  oomKilled: boolean;
  restarts: number;
  exitCode: string;
  /** The highest resident set of the site's process (VmHWM), in bytes; undefined when it had gone. */
  peakRss: number | undefined;
  /** The site's process has jemalloc mapped (the image preloads it: docs/decisions/060). */
  jemalloc: boolean;
  logs: string;
}

/** A manifest's memory quantity (`512Mi`, `512m`, bytes) in bytes. */
export function memoryBytes(quantity: string | number): number {
  const [, n, unit] = /^(\d+(?:\.\d+)?)\s*([KMG]i?|[kmg]b?)?$/.exec(String(quantity).trim()) ?? [];
  if (n === undefined) throw new Error(`not a memory quantity: ${quantity}`);
  const power = { k: 1, m: 2, g: 3 }[unit?.[0]?.toLowerCase() ?? ''] ?? 0;
  const base = unit === undefined || unit.includes('i') || /^[kmg]b?$/.test(unit) ? 1024 : 1000;
  return Math.round(Number(n) * base ** power);
}

async function inspect(name: string, format: string): Promise<string> {
  return (await podman('inspect', '--format', format, name)).stdout.trim();
}

/** A file of /proc for the site's process (PID 1 in the container, read from the host); '' when it has gone. */
async function procFile(name: string, file: string): Promise<string> {
  const pid = await inspect(name, '{{.State.Pid}}');
  try {
    return readFileSync(`/proc/${pid}/${file}`, 'utf8');
  } catch {
    return '';
  }
}

/** The site's process's highest resident set (VmHWM), in bytes. */
async function peakRss(name: string): Promise<number | undefined> {
  const kib = /VmHWM:\s+(\d+) kB/.exec(await procFile(name, 'status'))?.[1];
  return kib === undefined ? undefined : Number(kib) * 1024;
}

/**
 * Whether `url` answers 200 within `withinMs`, asked every half second while the container runs
 * and has not been restarted: one that has been (killed for memory as it started) has its verdict.
 */
async function answers(url: string, name: string, withinMs: number): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline && (await inspect(name, '{{.State.Running}} {{.RestartCount}}')) === 'true 0') {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
    if (res?.status === 200) return true;
    await new Promise((r) => setTimeout(r, 500));
  }
  return false;
}

/**
 * Runs the image with `--memory` at `limit` bytes (and no swap beyond it) and `env` added, waits
 * until it is healthy and its search answers, drives the mixed load at it for `seconds`, and reports.
 * `warm`: the home page's pictures are made before the load (below); a limit too small to make them
 * in would spend minutes on their refusals, and proves nothing more for it.
 */
export async function soakImage(
  image: string,
  limit: number,
  seconds: number,
  env: Record<string, string> = {},
  { warm = true } = {},
): Promise<ImageSoak> {
  const pair = await startPair(image, env, ['--memory', String(limit), '--memory-swap', String(limit), '--restart', 'on-failure']);
  try {
    const base = `http://127.0.0.1:${pair.port}`;
    // Up, with its search index built (a search before it is whole is answered 503, busy, which is not
    // what this measures). How soon it starts is image-check.ts's to prove; a busy machine takes longer.
    const up = await answers(`${base}/api/search?q=%E7%99%BD%E5%86%85%E9%9A%9C`, pair.name, 180_000);
    let load: MixedLoadReport | undefined;
    let limitSeen = '';
    if (up) {
      const metrics = await (await fetch(`http://127.0.0.1:${pair.metricsPort}/metrics`)).text();
      limitSeen = /^memory_limit_bytes(\{.*) .*$/m.exec(metrics)?.[0] ?? '';
      // Each picture of the home page is made first, in both formats (a few tries each), in this
      // container and under its limit: made for the first time under the load, on a busy machine, one
      // could take longer than the site waits for it, a 504 or, once the origin's breaker opens, a 503,
      // that say nothing of memory. The load then finds them.
      for (const picture of warm ? await homePictureAddresses(base) : []) {
        for (const accept of ['image/avif,image/webp,*/*', 'image/webp,*/*']) {
          for (let tries = 0; tries < 4; tries++) {
            const res = await fetch(base + picture, { headers: { accept }, signal: AbortSignal.timeout(120_000) }).catch(() => undefined);
            await res?.arrayBuffer();
            if (res?.status === 200) break;
          }
        }
      }
      load = await mixedLoad({ base, seconds });
    }
    return {
      limit,
      up,
      limitSeen,
      load,
      running: (await inspect(pair.name, '{{.State.Running}}')) === 'true',
      oomKilled: (await inspect(pair.name, '{{.State.OOMKilled}}')) === 'true',
      restarts: Number(await inspect(pair.name, '{{.RestartCount}}')),
      exitCode: await inspect(pair.name, '{{.State.ExitCode}}'),
      peakRss: await peakRss(pair.name),
      jemalloc: (await procFile(pair.name, 'maps')).includes('libjemalloc'),
      logs: (await podman('logs', '--tail', '50', pair.name)).stdout,
    };
  } finally {
    await pair.remove();
  }
}
