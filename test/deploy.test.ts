/**
 * The deployment artefacts, each checked by a real tool: the compose edge's VCL (made from the
 * shipped one; varnishd compiles it), deploy/compose.yaml (docker-compose validates and resolves
 * it), deploy/k8s (the Kubernetes API's schemas and types), the image itself (built from the
 * Dockerfile and run by podman as an operator runs it: test/support/image-check.ts; rebuilt only
 * when its build context changed).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import runtime from '../scripts/node-runtime/package.json' with { type: 'json' };
import { configTable, loadConfig } from '../server/settings/config.js';
import { COMPOSE_FILE, COMPOSE_VCL, SHIPPED_VCL, composeVcl, edgeNetwork } from '../scripts/compose-vcl.js';
import { builtAhead } from './support/image-ahead.js';
import { proveImage, runAlone, type ImageProof } from './support/image-check.js';
import { memoryBytes, soakImage } from './support/image-soak.js';
import { fieldErrors, readManifests, schemaErrors } from './support/k8s-manifests.js';

const read = (path: string) => readFileSync(path, 'utf8');

function compileVcl(path: string) {
  const dir = mkdtempSync(join(tmpdir(), 'vcl-'));
  // Run as root, varnishd compiles as its own unprivileged user.
  chmodSync(dir, 0o755);
  try {
    return spawnSync('varnishd', ['-C', '-n', dir, '-f', resolve(path)], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the compose edge VCL (deploy/compose/varnish.vcl)', () => {
  const vcl = read(COMPOSE_VCL);

  it('is the shipped VCL made for the compose file (npx tsx scripts/write-compose-vcl.ts)', () => {
    expect(composeVcl(read(SHIPPED_VCL), read(COMPOSE_FILE))).toBe(vcl);
  });

  it('compiles with varnishd, sends to both instances in turn and takes purges from their network', () => {
    const compiled = compileVcl(COMPOSE_VCL);
    expect(compiled.status, compiled.stderr.slice(-2000)).toBe(0);
    const edge = edgeNetwork(read(COMPOSE_FILE));
    expect(edge.sites.map((s) => s.service)).toEqual(['site-1', 'site-2']);
    for (const site of edge.sites) expect(vcl).toContain(`.host = "${site.address}";\n  .port = "3000";`);
    expect(vcl).toContain('new sites = directors.round_robin();');
    expect(vcl).toMatch(/sub vcl_recv \{\n {2}set req\.backend_hint = sites\.backend\(\);\n\}/);
    const [address, bits] = edge.subnet.split('/');
    expect(vcl).toMatch(new RegExp(`acl purgers \\{[^}]*"${address!.replaceAll('.', '\\.')}"/${bits};`));
    expect(vcl).not.toContain('"127.0.0.1";\n  .port');
  });

  it('refuses a shipped VCL whose backend it does not recognise, rather than guess', () => {
    expect(() => composeVcl(read(SHIPPED_VCL).replace('.port = "3000";', '.port = "3001";'), read(COMPOSE_FILE))).toThrow(
      /expected one match/,
    );
  });
});

/** What `docker-compose config` prints, as far as the tests read it. */
interface ResolvedCompose {
  services: Record<
    'site-1' | 'site-2' | 'content' | 'redis' | 'varnish',
    {
      environment: Record<string, string>;
      build?: { context: string; dockerfile: string };
      read_only?: boolean;
      depends_on?: Record<string, { condition: string }>;
      networks: Record<string, { aliases?: string[]; ipv4_address?: string } | null>;
      command?: string[];
      volumes?: string[];
      healthcheck?: { test: string[] };
      ports?: { target: number; published: number }[];
    }
  >;
  networks: Record<'edge' | 'backend', { internal?: boolean }>;
}

describe('deploy/compose.yaml', () => {
  const secrets = { PURGE_TOKEN: 'test-purge-token-0123456789', WEBHOOK_SECRET: 'test-webhook-secret-0123456789' };
  let dir: string;
  let emptyEnvFile: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'compose-'));
    // An operator's own secrets.env (or a deploy/.env) must not decide the outcome.
    emptyEnvFile = join(dir, 'empty.env');
    writeFileSync(emptyEnvFile, '');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** `docker-compose config` (Debian's docker-compose; .ci/run installs it): validates, interpolates, resolves. */
  function composeConfig(file: string, env: Record<string, string>, envFile = emptyEnvFile) {
    return spawnSync('docker-compose', ['--env-file', envFile, '--project-directory', resolve('deploy'), '-f', resolve(file), 'config'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH, ...env },
      timeout: 20_000,
    });
  }

  it('is valid, and wires the instances to the content API, Redis and the edge, with healthchecks', () => {
    const result = composeConfig(COMPOSE_FILE, secrets);
    expect(result.status, result.stderr).toBe(0);
    const config = parse(result.stdout) as ResolvedCompose;
    const { services } = config;
    expect(Object.keys(services).sort()).toEqual(['content', 'redis', 'site-1', 'site-2', 'varnish']);
    const edge = edgeNetwork(read(COMPOSE_FILE));
    for (const name of ['site-1', 'site-2'] as const) {
      const site = services[name];
      const env = site.environment;
      // The service's own configuration check accepts what compose gives it, in the image's production.
      expect(() => loadConfig({ NODE_ENV: 'production', ...env })).not.toThrow();
      expect(env).toMatchObject({
        UPSTREAM_URL: 'http://content:4000',
        REDIS_URL: 'redis://redis:6379',
        TRUSTED_PROXIES: edge.subnet,
        EDGE_PURGE_URLS: 'http://varnish:80/',
        METRICS_PORT: '9464',
        ...secrets,
      });
      expect(site.build).toMatchObject({ context: resolve('.'), dockerfile: 'Dockerfile' });
      expect(site.read_only).toBe(true);
      expect(site.depends_on).toEqual({ content: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
      expect(site.networks.backend?.aliases).toContain('site');
    }
    expect(services.content.command).toEqual(['node', 'dist/server/demo-content-api.js']);
    expect(services.content.environment).toMatchObject({ PORT: '4000', WEBHOOK_SECRET: secrets.WEBHOOK_SECRET });
    expect(services.content.environment.WEBHOOK_URLS).toBe('http://site:3000/admin/webhook');
    expect(services.redis.command).toEqual(['redis-server', '--appendonly', 'yes']);
    expect(services.varnish.volumes).toContainEqual(
      expect.stringMatching(/deploy\/compose\/varnish\.vcl:\/etc\/varnish\/default\.vcl:ro$/),
    );
    expect(services.varnish.networks.edge?.ipv4_address).toBe(edge.varnish);
    for (const [name, service] of Object.entries(services)) expect(service.healthcheck?.test, name).toBeDefined();
    expect(config.networks.backend.internal).toBe(true);
    // Only the edge is published; the instances' 3000 and 9464 (metrics) are on their networks only.
    for (const [name, service] of Object.entries(services)) {
      expect(service.ports ?? [], name).toEqual(name === 'varnish' ? [{ target: 80, published: 8080 }] : []);
    }
  });

  it('takes its secrets from an env file that git ignores, as the example shows', () => {
    const result = composeConfig(COMPOSE_FILE, {}, resolve('deploy/compose/secrets.env.example'));
    expect(result.status, result.stderr).toBe(0);
    const site = (parse(result.stdout) as ResolvedCompose).services['site-1'].environment;
    expect(site.PURGE_TOKEN).toMatch(/^replace-me/);
    expect(() => loadConfig(site)).not.toThrow();
    const ignored = spawnSync('git', ['check-ignore', '--no-index', 'deploy/compose/secrets.env'], { encoding: 'utf8' });
    expect(ignored.stdout.trim()).toBe('deploy/compose/secrets.env');
  });

  it('holds no secret: it stops with a message when they are not given', () => {
    const result = composeConfig(COMPOSE_FILE, {});
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('set PURGE_TOKEN');
    expect(read(COMPOSE_FILE)).not.toMatch(/(PURGE_TOKEN|WEBHOOK_SECRET): (?!\$\{)/);
  });

  it('fails when broken (so the check checks something)', () => {
    const broken = join(dir, 'broken.yaml');
    writeFileSync(broken, read(COMPOSE_FILE).replace('    interval: 10s', '    intervall: 10s'));
    const result = composeConfig(broken, secrets);
    expect(result.status).not.toBe(0);
    expect(result.stderr).toMatch(/healthcheck value 'intervall' does not match/);
  });
});

describe('deploy/k8s', () => {
  const manifests = readManifests('deploy/k8s');
  const find = (kind: string, name: string) => {
    const found = manifests.find((m) => m.kind === kind && m.metadata.name === name);
    if (!found) throw new Error(`no ${kind} ${name} in deploy/k8s`);
    return found;
  };

  it('validates, document by document, against the Kubernetes API schemas', () => {
    expect(manifests.map((m) => `${m.kind}/${m.metadata.name}`).sort()).toEqual([
      'ConfigMap/site-config',
      'Deployment/content-api',
      'Deployment/site',
      'HorizontalPodAutoscaler/site',
      'PodDisruptionBudget/site',
      'Secret/site-secrets',
      'Service/content-api',
      'Service/redis',
      'Service/site',
      'StatefulSet/redis',
    ]);
    for (const manifest of manifests) expect(schemaErrors(manifest), `${manifest.file} ${manifest.kind}`).toEqual([]);
  });

  it('has no field the Kubernetes API does not know', () => {
    expect(fieldErrors(manifests)).toEqual([]);
  });

  it('fails a broken manifest, by schema and by field (so the checks check something)', () => {
    const site = find('Deployment', 'site');
    const broken = structuredClone(site);
    broken.spec.replicas = 'two';
    delete broken.spec.selector;
    expect(schemaErrors(broken).join()).toMatch(/spec must have required property selector.*spec\/replicas must be integer/);
    const lots = structuredClone(site);
    lots.spec.template.spec.containers[0].resources.limits.memory = 'lots';
    expect(schemaErrors(lots).join()).toMatch(/limits\/memory must match format "quantity"/);
    const misspelt = structuredClone(site);
    const container = misspelt.spec.template.spec.containers[0];
    container.readinesProbe = container.readinessProbe;
    delete container.readinessProbe;
    expect(schemaErrors(misspelt)).toEqual([]);
    expect(fieldErrors([misspelt]).join()).toMatch(/'"readinesProbe"' does not exist in type 'IContainer'/);
    expect(schemaErrors({ ...site, apiVersion: 'autoscaling/v2beta9' })).toEqual(['no schema for autoscaling/v2beta9 Deployment']);
  });

  it('runs the site with readiness and liveness probes, requests and limits, a locked-down non-root container, a named metrics port', () => {
    const pod = find('Deployment', 'site').spec.template.spec;
    expect(find('Deployment', 'site').spec.replicas).toBe(2);
    const [container] = pod.containers;
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.ports).toEqual([
      { name: 'http', containerPort: 3000 },
      { name: 'metrics', containerPort: 9464 },
    ]);
    expect(Object.keys(container.resources).sort()).toEqual(['limits', 'requests']);
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
    // The pod's whole grace period covers the preStop pause and the service's own shutdown budget.
    const config = find('ConfigMap', 'site-config').data;
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(Number(config.SHUTDOWN_TIMEOUT_MS) + 5_000);
  });

  it('gives the site a configuration its own check accepts, from the ConfigMap and the Secret', () => {
    const configMap = find('ConfigMap', 'site-config');
    const secret = find('Secret', 'site-secrets');
    const container = find('Deployment', 'site').spec.template.spec.containers[0];
    expect(container.envFrom).toEqual([{ configMapRef: { name: 'site-config' } }]);
    for (const { name, valueFrom } of container.env) {
      expect(valueFrom.secretKeyRef.name).toBe('site-secrets');
      expect(Object.keys(secret.stringData)).toContain(valueFrom.secretKeyRef.key);
      expect(name).toBe(valueFrom.secretKeyRef.key);
    }
    // Placeholders only, long enough to start with, and plainly to be replaced.
    expect(secret.stringData.PURGE_TOKEN).toMatch(/^REPLACE-ME/);
    expect(secret.stringData.WEBHOOK_SECRET).toMatch(/^REPLACE-ME/);
    const config = loadConfig({ NODE_ENV: 'production', ...configMap.data, ...secret.stringData });
    expect(config).toMatchObject({ METRICS_PORT: 9464, WORKERS: 1, UPSTREAM_URL: 'http://content-api:4000' });
    // Each variable the ConfigMap sets is one the service reads.
    const known = [...configTable().matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
    for (const key of Object.keys(configMap.data)) expect(known, key).toContain(key);
  });

  it('ties Services, the budget and the autoscaler to their pods and ports', () => {
    for (const [service, workload] of [
      ['site', find('Deployment', 'site')],
      ['content-api', find('Deployment', 'content-api')],
      ['redis', find('StatefulSet', 'redis')],
    ] as const) {
      const spec = find('Service', service).spec;
      expect(workload.spec.template.metadata.labels).toMatchObject(spec.selector);
      const ports = workload.spec.template.spec.containers[0].ports.map((p: { name: string }) => p.name);
      for (const port of spec.ports) expect(ports).toContain(port.targetPort);
    }
    const labels = find('Deployment', 'site').spec.template.metadata.labels;
    expect(labels).toMatchObject(find('PodDisruptionBudget', 'site').spec.selector.matchLabels);
    expect(find('HorizontalPodAutoscaler', 'site').spec.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: 'site',
    });
    const upstream = new URL(find('ConfigMap', 'site-config').data.UPSTREAM_URL);
    expect(find('Service', upstream.hostname).spec.ports[0].port).toBe(Number(upstream.port));
    const content = find('Deployment', 'content-api').spec.template.spec.containers[0];
    expect(content.command).toEqual(['node', 'dist/server/demo-content-api.js']);
    expect(find('StatefulSet', 'redis').spec.template.spec.containers[0].args).toEqual(['redis-server', '--appendonly', 'yes']);
  });
});

/** The final stage of the Dockerfile: its ENV and CMD, as the image starts. */
function imageStart(dockerfile: string): { env: Record<string, string>; cmd: string[] } {
  const final = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const [, list] of final.matchAll(/^ENV (.+)$/gm)) for (const [, k, v] of list!.matchAll(/(\w+)=(\S+)/g)) env[k!] = v!;
  const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(final)![1]!) as string[];
  return { env, cmd };
}

describe('the image', () => {
  const dockerfile = read('Dockerfile');

  it('is built in stages on Node 26, runs as a non-root user, listens on every address, checks /healthz', () => {
    // Both stages on one base, pinned by its digest (test/node-runtime.test.ts).
    expect(dockerfile.match(/^FROM .*$/gm)).toEqual(['FROM ${NODE_IMAGE} AS build', 'FROM ${NODE_IMAGE}']);
    const final = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(final).toMatch(/^USER node$/m);
    expect(final).toMatch(/^HEALTHCHECK .*\\\n\s+CMD \[.*\/healthz/m);
    expect(final).toMatch(/^EXPOSE 3000 9464$/m);
    const { env, cmd } = imageStart(dockerfile);
    expect(env).toMatchObject({ NODE_ENV: 'production', HOST: '0.0.0.0', PORT: '3000', METRICS_PORT: '9464' });
    expect(cmd).toEqual(['node', 'dist/server/index.js']);
    // What goes into the build context: never a secret or a local install.
    const ignore = read('.dockerignore');
    expect(ignore).toMatch(/^\*$/m);
    expect(ignore).not.toMatch(/^!.*(env|node_modules|dist)/m);
  });

  describe('built from the Dockerfile and run by podman (a real engine)', () => {
    let proof: ImageProof;
    // The first build on a machine takes minutes (npm ci, the build); the same context is not built again.
    beforeAll(async () => {
      // Built from the start of the run (support/image-ahead.ts); run here.
      await builtAhead(inject('imageAhead'));
      proof = await proveImage();
    }, 20 * 60_000);

    it('declares a HEALTHCHECK on /healthz, and runs the lockfile’s Node as the node user on a read-only root', () => {
      expect(proof.healthcheck.join(' ')).toMatch(/^CMD node -e .*\/healthz/);
      // The very build these tests run on (test/node-runtime.test.ts), byte for byte.
      expect(proof.node).toBe(`v${runtime.version}`);
      expect(proof.nodeSha256).toBe(
        createHash('sha256')
          .update(readFileSync(realpathSync(process.execPath)))
          .digest('hex'),
      );
      expect(proof.uid).toBe('1000');
      expect(proof.write.status).not.toBe(0);
      expect(proof.write.stderr).toMatch(/Read-only file system/);
    });

    it('passes its own HEALTHCHECK, serves a page and the API, is ready, and keeps metrics on METRICS_PORT', () => {
      expect(proof.healthyAfterMs, `${proof.health}\n${proof.stop.stdout.slice(-2000)}`).toBeLessThan(30_000);
      const [page, api, ready, publicMetrics, metrics] = proof.answers;
      expect(page).toMatchObject({ status: 200, contentType: expect.stringMatching(/^text\/html/) });
      expect(page!.body).toContain('明瞳');
      expect(api!.status).toBe(200);
      expect((JSON.parse(api!.body) as { data: { items: unknown[] } }).data.items.length).toBeGreaterThan(0);
      expect(ready!.status).toBe(200);
      expect(publicMetrics!.status).toBe(404);
      expect(metrics!.status).toBe(200);
      expect(metrics!.body).toContain('http_requests_total');
    });

    it('stops cleanly on SIGTERM: exit 0 well before the SIGKILL, "stopped" its last line, nothing on stderr', () => {
      expect(proof.stop.exitCode, proof.stop.stdout.slice(-2000)).toBe('0');
      expect(proof.stop.seconds).toBeLessThan(15);
      expect(proof.stop.stdout).toMatch(/"msg":"stopped"\}\n$/);
      expect(proof.stop.stderr).toBe('');
    });

    it('refuses to start without a content API, saying what to set: never the invented demo content by accident', async () => {
      const alone = await runAlone(proof.image);
      expect(alone.status).toBe(2);
      expect(alone.stderr).toContain('UPSTREAM_URL: must be set with NODE_ENV=production');
      expect(alone.stderr).toContain('CONTENT=demo');
      expect(alone.stdout).toBe('');
    }, 60_000);

    it(
      'lives through a minute of the mixed load under each memory limit the manifests give it: never killed or restarted, no 5xx',
      async () => {
        const deployment = readManifests('deploy/k8s').find((m) => m.kind === 'Deployment' && m.metadata.name === 'site')!;
        const site = deployment.spec.template.spec.containers[0];
        const compose = parse(read(COMPOSE_FILE), { merge: true }) as { services: Record<string, { mem_limit?: string }> };
        const limits = new Set([memoryBytes(site.resources.limits.memory), memoryBytes(compose.services['site-1']!.mem_limit!)]);
        expect(memoryBytes(compose.services['site-2']!.mem_limit!)).toBe(memoryBytes(compose.services['site-1']!.mem_limit!));
        for (const limit of limits) {
          // One client address drives the load: the limits per client (and shedding for a busy machine's lag) are not what this proves.
          const soak = await soakImage(proof.image, limit, 60, {
            WORKERS: '1',
            LOG_LEVEL: 'warn',
            RATE_LIMIT_MISSES: '0',
            RENDERS_PER_CLIENT: '0',
            SHED_EVENT_LOOP_LAG_MS: '0',
            // On a busy machine the demo content API, in its container, and the photos' first transforms
            // answer late: a gateway timeout would say nothing of memory.
            MEDIA_TIMEOUT_MS: '60000',
            UPSTREAM_TIMEOUT_MS: '30000',
          });
          const said = `${limit} bytes: ${JSON.stringify({ ...soak, logs: undefined })}\n${soak.logs}`;
          expect(soak.up, said).toBe(true);
          // The service read the container's limit from its cgroup.
          expect(soak.limitSeen, said).toBe(`memory_limit_bytes{source="cgroup"} ${limit}`);
          // A minute of the load took place (thousands of answers on a quiet machine; a few hundred on one seven builds share).
          expect(soak.load!.answers, said).toBeGreaterThan(100);
          expect(soak.load!.serverErrors + soak.load!.failures, said).toBe(0);
          expect({ running: soak.running, oomKilled: soak.oomKilled, restarts: soak.restarts }, said).toEqual({
            running: true,
            oomKilled: false,
            restarts: 0,
          });
          expect(soak.peakRss, said).toBeLessThan(limit);
          expect(soak.jemalloc, `the image's allocator (docs/decisions/060)`).toBe(true);
        }
      },
      10 * 60_000,
    );

    it(
      'catches a limit the service cannot live under: killed, restarted or refusing (so the check checks something)',
      async () => {
        const soak = await soakImage(
          proof.image,
          128 * 1024 * 1024,
          20,
          { WORKERS: '1', LOG_LEVEL: 'warn', SHED_EVENT_LOOP_LAG_MS: '0' },
          { warm: false },
        );
        const said = JSON.stringify({ ...soak, logs: undefined });
        expect(!soak.up || soak.oomKilled || soak.restarts > 0 || !soak.running || soak.load!.serverErrors > 0, said).toBe(true);
      },
      10 * 60_000,
    );

    it('fails when the image cannot serve (so the check checks something)', async () => {
      const broken = await proveImage(undefined, { PORT: 'not-a-port' });
      expect(broken.image).toBe(proof.image);
      expect(broken.healthyAfterMs).toBeUndefined();
      expect(broken.answers).toEqual([]);
      expect(broken.stop.exitCode).not.toBe('0');
      expect(broken.stop.stdout + broken.stop.stderr).toContain('PORT');
    }, 60_000);
  });
});
