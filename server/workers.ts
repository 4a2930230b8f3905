/**
 * Every core (decisions 016 and 022): with WORKERS above 1 the service runs as a primary process
 * and that many workers serving one port (node:cluster). The primary serves no request itself:
 * it starts the embedded content API when there is no other (one for all workers), starts the
 * workers and replaces one that dies, and is what makes them one service:
 * - without Redis, it holds the machine's shared tier (memory-tier.ts), so that one upstream call
 *   per key is made among the workers and any of them serves what another fetched;
 * - it keeps the budget of misses per client for the machine (rate-limiter-flexible's cluster
 *   limiter; with Redis the budget is the fleet's, in Redis);
 * - it passes purges on to the other workers, answers one readiness for the machine, gathers
 *   every worker's report (metrics, spenders, recent errors) for /metrics and /status, and warns
 *   once of a peer that sends X-Forwarded-For without being trusted;
 * - on SIGTERM it stops them all gracefully before it exits.
 * The workers reach it through primary-link.ts.
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry } from 'prom-client';
import { RateLimiterClusterMaster } from 'rate-limiter-flexible';
import type { Config } from './settings/config.js';
import type { MemoryBudget } from './settings/memory-budget.js';
import { startEmbeddedApi } from './embedded-api/embedded-api.js';
import { warnUntrustedForwarder } from './http/untrusted-forwarders.js';
import type { Logger } from './observability/logger.js';
import type { RecentErrors } from './observability/recent-errors.js';
import { embeddedPublishing } from './embedded-api/editor.js';
import { reachableUrl } from './listeners.js';
import {
  isSiteMessage,
  type MachineReadiness,
  type PrimaryCall,
  type ProcessReport,
  type ToPrimary,
  type ToWorker,
} from './fleet/cluster-messages.js';
import { MemoryTier } from './fleet/memory-tier.js';
import type { ServiceReport } from './fleet/primary-link.js';

/** A replaced worker that dies again this soon is not replaced at once (a crash loop). */
const RESTART_BACKOFF_MS = 1_000;
/** How long the primary waits for a worker's report; a worker that does not answer is left out. */
const REPORT_WAIT_MS = 3_000;
/** Searches that found nothing, shown on /status. */
const ZERO_RESULTS_SHOWN = 20;
/** Peers warned about; past it, no more warnings (the workers still count them). */
const MAX_WARNED_PEERS = 1_000;

export interface Primary {
  /** The service's address, once the first worker listens. */
  url: Promise<string>;
  upstreamUrl: string;
  stop(signal: string): Promise<void>;
}

export async function startPrimary(
  config: Config,
  count: number,
  log: Logger,
  recentErrors: RecentErrors | undefined,
  budget: MemoryBudget,
): Promise<Primary> {
  let listening: string | undefined;
  const embedded = config.UPSTREAM_URL
    ? undefined
    : await startEmbeddedApi({ port: config.EMBEDDED_API_PORT, publishing: embeddedPublishing(config.WEBHOOK_SECRET, () => listening) });
  const upstreamUrl = config.UPSTREAM_URL ?? embedded!.url;
  if (embedded) log.info({ url: upstreamUrl }, 'no UPSTREAM_URL: embedded content API started');
  // Structured clone over the channel: answers travel as strings without a second JSON encoding, dates stay dates.
  cluster.setupPrimary({ serialization: 'advanced' });
  const tier = config.REDIS_URL
    ? undefined
    : new MemoryTier(budget.shares.content, Math.max(config.CACHE_STALE_WHILE_REVALIDATE_S, config.CACHE_STALE_IF_ERROR_S) * 1000);
  if (!config.REDIS_URL) new RateLimiterClusterMaster();
  const states = new Map<number, { warm: boolean; busy: boolean }>();
  const warned = new Set<string>();
  const reportsWaited = new Map<number, (report: ProcessReport) => void>();
  let nextReport = 0;
  let stopping = false;
  let resolveUrl: (url: string) => void;
  const url = new Promise<string>((resolve) => (resolveUrl = resolve));

  const live = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && w.isConnected());

  function readiness(): MachineReadiness {
    const known = [...states.values()];
    return {
      warm: (tier?.size ?? 0) > 0 || known.some((s) => s.warm),
      busy: known.length > 0 && known.every((s) => s.busy),
    };
  }

  /** Every worker's report, merged: metrics aggregated as prom-client does, lists summed. */
  async function gather(): Promise<ServiceReport> {
    const reports = await Promise.all(
      live().map(
        (worker) =>
          new Promise<ProcessReport | undefined>((resolve) => {
            const id = nextReport++;
            const timer = setTimeout(() => {
              reportsWaited.delete(id);
              resolve(undefined);
            }, REPORT_WAIT_MS);
            reportsWaited.set(id, (report) => {
              clearTimeout(timer);
              resolve(report);
            });
            worker.send({ type: 'site:report-request', id } satisfies ToWorker);
          }),
      ),
    );
    const got = reports.filter((r): r is ProcessReport => r !== undefined);
    const registry = AggregatorRegistry.aggregate(got.map((r) => r.metrics));
    const sum = (lists: [string, number][][]) => {
      const total = new Map<string, number>();
      for (const [key, n] of lists.flat()) total.set(key, (total.get(key) ?? 0) + n);
      return [...total].sort((a, b) => b[1] - a[1]);
    };
    return {
      metrics: await registry.getMetricsAsJSON(),
      metricsText: await registry.metrics(),
      spenders: sum(got.map((r) => r.spenders)).slice(0, 10),
      forwarders: sum(got.map((r) => r.forwarders)),
      zeroResults: sum(got.map((r) => r.zeroResults)).slice(0, ZERO_RESULTS_SHOWN),
      recentErrors: [...(recentErrors?.list() ?? []), ...got.flatMap((r) => r.recentErrors)]
        .sort((a, b) => b.time.getTime() - a.time.getTime())
        .slice(0, 50),
    };
  }

  async function answer(call: PrimaryCall): Promise<unknown> {
    if (call.op === 'readiness') return readiness();
    if (call.op === 'report') return gather();
    if (!tier) throw new Error('no machine tier: the workers share Redis');
    return (tier[call.method] as (...args: unknown[]) => Promise<unknown>)(...call.args);
  }

  const onMessage = (worker: Worker, message: ToPrimary) => {
    switch (message.type) {
      case 'site:listening': {
        const { hostname, port } = new URL(message.url);
        listening ??= reachableUrl(hostname, Number(port));
        resolveUrl(message.url);
        break;
      }
      case 'site:call':
        answer(message.call).then(
          (result) => worker.isConnected() && worker.send({ type: 'site:reply', id: message.id, result } satisfies ToWorker),
          (error: unknown) => {
            log.error({ err: error, call: message.call.op }, 'a worker call failed in the primary');
            if (worker.isConnected()) worker.send({ type: 'site:reply', id: message.id, error: String(error) } satisfies ToWorker);
          },
        );
        break;
      case 'site:report':
        reportsWaited.get(message.id)?.(message.report);
        reportsWaited.delete(message.id);
        break;
      case 'site:state':
        states.set(worker.id, { warm: message.warm, busy: message.busy });
        break;
      case 'site:forwarder':
        if (!warned.has(message.address) && warned.size < MAX_WARNED_PEERS) {
          warned.add(message.address);
          warnUntrustedForwarder(log, message.address);
        }
        break;
      case 'site:purge':
        // A purge asked of one worker reaches the others through the primary (through Redis when there is one).
        for (const other of live()) if (other !== worker) other.send(message satisfies ToWorker);
        break;
    }
  };

  const fork = (): Worker => {
    const worker = cluster.fork({ UPSTREAM_URL: upstreamUrl, SITE_WORKER: '1' });
    const started = Date.now();
    worker.on('message', (message: unknown) => {
      if (isSiteMessage<ToPrimary>(message)) onMessage(worker, message);
    });
    // A message to a worker whose process has just ended (an answer to its last call while the
    // service stops, or a worker that died) fails with EPIPE on the Worker: unheard, that error
    // would end the primary, and with it every other worker.
    worker.on('error', (error: Error) => {
      if (stopping) log.info({ worker: worker.id, err: error }, 'a message to a stopping worker was not delivered');
      else log.warn({ worker: worker.id, err: error }, 'a message to a worker was not delivered');
    });
    worker.on('exit', (code, signal) => {
      states.delete(worker.id);
      if (stopping) return;
      log.error({ worker: worker.id, code, signal }, 'worker died; starting another');
      setTimeout(fork, Date.now() - started < RESTART_BACKOFF_MS ? RESTART_BACKOFF_MS : 0);
    });
    return worker;
  };
  for (let i = 0; i < count; i++) fork();
  log.info({ workers: count, shared: config.REDIS_URL ? 'redis' : 'primary' }, 'workers started');

  return {
    url,
    upstreamUrl,
    async stop(signal: string) {
      stopping = true;
      const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
      await Promise.all(
        workers.map(
          (w) =>
            new Promise<void>((resolve) => {
              if (w.isDead()) return resolve();
              w.once('exit', () => resolve());
              w.process.kill(signal as NodeJS.Signals);
            }),
        ),
      );
      await embedded?.close();
    },
  };
}
