// Where the service spends its time, from a V8 .cpuprofile: shown beside a target it missed.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fmt, table } from './figures.js';
import { ROOT } from './processes.js';
import { startService } from './service.js';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame; children?: number[] }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A stretch of time on profileClock's clock, in microseconds. */
interface ProfileWindow {
  from: number;
  to: number;
}

/** Now on the clock V8's profiler stamps its samples with (CLOCK_MONOTONIC), in microseconds. */
export const profileClock = () => Number(process.hrtime.bigint() / 1000n);

/** The profile's samples taken within `window` (profileClock), or all of them without one. */
function within(profile: CpuProfile, window: ProfileWindow | undefined): CpuProfile {
  if (!window) return profile;
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    if (at < window.from || at > window.to) return;
    samples.push(id);
    timeDeltas.push(dt);
  });
  return { ...profile, samples, timeDeltas };
}

function frames(profile: CpuProfile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  return (id: number): CallFrame => byId.get(id) ?? { functionName: '(unknown)', url: '', lineNumber: 0 };
}

/**
 * Top self-time functions of a V8 .cpuprofile: [{ name, where, ms, share }], aggregated by
 * function and location, idle and GC included as V8 names them.
 */
function topSelfTime(profile: CpuProfile, limit = 15) {
  const frameOf = frames(profile);
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const fileOf = (frame: CallFrame) =>
    frame.url
      ? `${frame.url
          .replace(/^file:\/\//, '')
          .replace(ROOT, '')
          .replace(/^.*node_modules\//, '')}:${frame.lineNumber + 1}`
      : '';
  /** Native functions (no URL) are named with their nearest JavaScript caller. */
  const callerOf = (id: number) => {
    for (let p = parent.get(id); p !== undefined; p = parent.get(p)) {
      const frame = frameOf(p);
      if (frame.url) return `called from \`${frame.functionName || '(anonymous)'}\` ${fileOf(frame)}`;
    }
    return '';
  };
  const self = new Map<number, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const agg = new Map<string, { name: string; where: string; us: number }>();
  for (const [id, us] of self) {
    const frame = frameOf(id);
    const name = frame.functionName || '(anonymous)';
    const where = frame.url ? fileOf(frame) : name.startsWith('(') ? '' : callerOf(id);
    const key = `${name} ${where}`;
    const a = agg.get(key) ?? { name, where, us: 0 };
    a.us += us;
    agg.set(key, a);
  }
  return [...agg.values()]
    .sort((a, b) => b.us - a.us)
    .slice(0, limit)
    .map((a) => ({ name: a.name, where: a.where, ms: a.us / 1000, share: a.us / total }));
}

/** Self time grouped by package (node_modules/<pkg>), the service's bundle, node internals… */
function selfTimeByArea(profile: CpuProfile) {
  const frameOf = frames(profile);
  const area = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const { url, functionName } = frameOf(id);
    let name;
    if (!url) name = functionName.startsWith('(') ? functionName : '(native)';
    else if (url.includes('node_modules/')) name = url.replace(/^.*node_modules\/((?:@[^/]+\/)?[^/]+).*$/, '$1');
    else if (url.startsWith('node:')) name = 'node internals';
    else if (url.includes('/dist/server/')) name = 'service bundle (dist/server)';
    else name = url.replace(/^file:\/\//, '').replace(ROOT, '');
    area.set(name, (area.get(name) ?? 0) + dt);
  });
  return [...area.entries()].sort((a, b) => b[1] - a[1]).map(([name, us]) => ({ name, share: us / total }));
}

/**
 * Run the service under `node --cpu-prof` while `load(serviceUrl, pid)` runs, stop it, and
 * summarise the profile (top self-time functions and the share by package) as markdown. When
 * `load` resolves to a window `{ from, to }` (profileClock), only the samples within it count:
 * the start and the warm-up are left out.
 */
export async function profileService(
  load: (url: string, pid: number | undefined) => Promise<ProfileWindow | void> | void,
  { env = {}, limit = 12 }: { env?: Record<string, string>; limit?: number } = {},
): Promise<string> {
  const dir = join(ROOT, 'bench/.build/profiles');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const service = await startService({ env, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
  let window: ProfileWindow | void;
  try {
    window = await load(service.url, service.child.pid);
  } finally {
    await service.stop();
  }
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return '(no profile was written)';
  const profile = within(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile, window ?? undefined);
  const top = topSelfTime(profile, limit);
  const areas = selfTimeByArea(profile).slice(0, 8);
  return [
    table(
      ['self time', 'share', 'function', 'where'],
      top.map((t) => [
        `${fmt(t.ms)} ms`,
        `${fmt(t.share * 100, 1)} %`,
        `\`${t.name}\``,
        t.where.startsWith('called') ? t.where : t.where ? `\`${t.where}\`` : '',
      ]),
    ),
    '',
    `By package: ${areas.map((a) => `${a.name} ${fmt(a.share * 100, 1)} %`).join(', ')}.`,
  ].join('\n');
}

/**
 * Compile bench/bare-render-entry.tsx with Vite's SSR build (the route tree needs Vite's
 * import.meta.glob) into bench/.build/bare-render/bare-render.js. Rebuilt every run, so that it
 * renders the current sources. Returns the script's path, relative to the project.
 */
export async function buildBareRender(): Promise<string> {
  const { build } = await import('vite');
  const react = (await import('@vitejs/plugin-react')).default;
  await build({
    root: ROOT,
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    plugins: [react()],
    build: {
      ssr: 'bench/bare-render-entry.tsx',
      outDir: 'bench/.build/bare-render',
      emptyOutDir: true,
      target: 'node26',
      copyPublicDir: false,
      rollupOptions: { output: { entryFileNames: 'bare-render.js' } },
    },
  });
  return 'bench/.build/bare-render/bare-render.js';
}
