/**
 * Every core (docs/decisions/016): with WORKERS above 1 the service runs as a primary process
 * and that many workers serving one port (node:cluster). The primary serves nothing itself: it
 * starts the embedded content API when there is no other (one for all workers), starts the
 * workers and replaces one that dies, relays what concerns them all, gathers every worker's
 * metrics into one set for /metrics (prom-client's AggregatorRegistry), and on SIGTERM stops
 * them all gracefully before it exits.
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';
import type { Config } from '../config.js';
import { startEmbeddedApi } from '../embedded-api/embedded-api.js';
import type { Logger } from '../observability/logger.js';
import { embeddedPublishing, reachableUrl } from '../service.js';
import type { PurgeBus, PurgeMessage } from './purge.js';

/** Messages between the primary and its workers. */
type WorkerMessage = { type: 'listening'; url: string } | { type: 'metrics-request'; id: number } | ({ type: 'purge' } & PurgeMessage);
type PrimaryMessage = { type: 'metrics'; id: number; text: string; error?: string } | ({ type: 'purge' } & PurgeMessage);

/** A replaced worker that dies again this soon is not replaced at once (a crash loop). */
const RESTART_BACKOFF_MS = 1_000;

export interface Primary {
  /** The service's address, once the first worker listens. */
  url: Promise<string>;
  upstreamUrl: string;
  stop(signal: string): Promise<void>;
}

export async function startPrimary(config: Config, count: number, log: Logger): Promise<Primary> {
  let listening: string | undefined;
  const embedded = config.UPSTREAM_URL
    ? undefined
    : await startEmbeddedApi({ port: config.EMBEDDED_API_PORT, publishing: embeddedPublishing(config, () => listening) });
  const upstreamUrl = config.UPSTREAM_URL ?? embedded!.url;
  if (embedded) log.info({ url: upstreamUrl }, 'no UPSTREAM_URL: embedded content API started');
  const aggregator = new AggregatorRegistry();
  let stopping = false;
  let resolveUrl: (url: string) => void;
  const url = new Promise<string>((resolve) => (resolveUrl = resolve));

  const fork = (): Worker => {
    const worker = cluster.fork({ UPSTREAM_URL: upstreamUrl, SITE_WORKER: '1' });
    const started = Date.now();
    worker.on('message', (message: WorkerMessage) => {
      if (message.type === 'listening') {
        const { hostname, port } = new URL(message.url);
        listening ??= reachableUrl(hostname, Number(port));
        resolveUrl(message.url);
      }
      // Without Redis, a purge asked of one worker reaches the others through the primary.
      if (message.type === 'purge') {
        for (const w of Object.values(cluster.workers ?? {})) if (w !== worker) w?.send(message satisfies PrimaryMessage);
      }
      if (message.type === 'metrics-request') {
        aggregator.clusterMetrics().then(
          (text) => worker.send({ type: 'metrics', id: message.id, text } satisfies PrimaryMessage),
          (error: unknown) => worker.send({ type: 'metrics', id: message.id, text: '', error: String(error) } satisfies PrimaryMessage),
        );
      }
    });
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      log.error({ worker: worker.id, code, signal }, 'worker died; starting another');
      setTimeout(fork, Date.now() - started < RESTART_BACKOFF_MS ? RESTART_BACKOFF_MS : 0);
    });
    return worker;
  };
  for (let i = 0; i < count; i++) fork();
  log.info({ workers: count }, 'workers started');

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

/** In a worker: reports to the primary, and reads the whole service's metrics through it. */
export function workerLink(registry: Registry) {
  // The primary asks each worker for this registry's metrics when it gathers them.
  AggregatorRegistry.setRegistries(registry);
  new AggregatorRegistry();
  const waiting = new Map<number, { resolve: (text: string) => void; reject: (error: Error) => void }>();
  let next = 0;
  process.on('message', (message: PrimaryMessage) => {
    if (message.type !== 'metrics') return;
    const request = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error) request?.reject(new Error(`the workers' metrics could not be gathered: ${message.error}`));
    else request?.resolve(message.text);
  });
  return {
    listening(url: string) {
      process.send?.({ type: 'listening', url } satisfies WorkerMessage);
    },
    /** Every worker's metrics, summed by the primary. */
    metrics(): Promise<string> {
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        process.send?.({ type: 'metrics-request', id } satisfies WorkerMessage);
      });
    },
  };
}

/** In a worker without Redis: purges go to every worker through the primary. */
export function clusterBus(): PurgeBus {
  return {
    publish(message) {
      process.send?.({ type: 'purge', ...message } satisfies WorkerMessage);
      return Promise.resolve(true);
    },
    listen(apply) {
      process.on('message', (message: PrimaryMessage) => {
        if (message.type === 'purge') apply(message);
      });
    },
    close: () => Promise.resolve(),
  };
}
