/**
 * The long-lived shell: reads the configuration, starts the service (in this process, or as a
 * primary and its workers when WORKERS is above 1), and shuts it down gracefully on SIGTERM or
 * SIGINT (stop accepting, finish in-flight requests, then exit).
 */
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtApp, viteApp } from './app-source.js';
import { ConfigError, loadConfig, type Config } from './settings/config.js';
import { memoryBudget, type MemoryBudget } from './settings/memory-budget.js';
import { PrimaryLink } from './fleet/primary-link.js';
import { startPrimary } from './workers.js';
import { createLogger, logCrashes } from './observability/logger.js';
import { RecentErrors } from './observability/recent-errors.js';
import { createService } from './service.js';

// In production this file is in dist/server, beside dist/client.
const clientDir = join(dirname(fileURLToPath(import.meta.url)), '../client');

/** What `read` makes of the configuration; a ConfigError stops the service with its message. */
function checked<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}

const config: Config = checked(() => loadConfig());
// Warnings and errors are kept for /status too.
const recentErrors = new RecentErrors();
const log = createLogger(config.LOG_LEVEL, recentErrors);
logCrashes(log);
const dev = process.argv.includes('--dev');
const workers = dev ? 1 : (config.WORKERS ?? (process.env.NODE_ENV === 'production' ? availableParallelism() : 1));
// The machine's limit is shared by every process of the service: the workers and their primary.
const budget: MemoryBudget = checked(() => memoryBudget(config, workers > 1 ? workers + 1 : 1));

/** Stops once, on the first of SIGTERM and SIGINT; forced after SHUTDOWN_TIMEOUT_MS. */
function onStopSignal(stop: (signal: string) => Promise<void>, forceClose?: () => void): void {
  let stopping = false;
  const handle = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      log.error({ timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, 'shutdown timed out; closing open connections');
      forceClose?.();
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    force.unref();
    // Exit once the log is written out: exiting during an asynchronous write could put the
    // last lines out of order.
    const exit = (code: number) => log.flush(() => process.exit(code));
    stop(signal).then(
      () => {
        log.info('stopped');
        exit(0);
      },
      (error: unknown) => {
        log.error({ err: error }, 'shutdown failed');
        exit(1);
      },
    );
  };
  process.on('SIGTERM', () => handle('SIGTERM'));
  process.on('SIGINT', () => handle('SIGINT'));
}

/** A person at a terminal gets one plain line; logs that go to a file or a collector stay JSON only. */
function tellTerminal(url: string): void {
  if (!process.stdout.isTTY) return;
  const content = config.UPSTREAM_URL ? `content API ${config.UPSTREAM_URL}` : 'embedded demo content';
  const processes = workers > 1 ? `, ${workers} workers` : '';
  process.stdout.write(
    `\n  明瞳眼科 website: ${url.replace('127.0.0.1', 'localhost')}  (${content}, Node ${process.version}${processes})\n\n`,
  );
}

if (cluster.isPrimary && workers > 1) {
  const primary = await startPrimary(config, workers, log, recentErrors, budget);
  const url = await primary.url;
  log.info({ url, upstream: primary.upstreamUrl, workers, node: process.version }, 'listening');
  tellTerminal(url);
  onStopSignal((signal) => primary.stop(signal));
} else {
  // A worker and its primary make one service (workers.ts): the shared tier without Redis,
  // purges, readiness, and /metrics and /status for all the workers go through this link.
  const link = cluster.isWorker ? new PrimaryLink() : undefined;
  const service = await createService(config, {
    app: dev ? await viteApp() : builtApp(clientDir),
    logger: log,
    recentErrors,
    link,
    budget,
  });
  // A worker's listen() shares the primary's socket, which hands connections out in turn.
  const url = await service.listen();
  if (link) {
    log.info({ url, worker: cluster.worker?.id }, 'worker listening');
    link.listening(url);
  } else {
    log.info({ url, upstream: service.upstreamUrl, dev, node: process.version }, 'listening');
    tellTerminal(url);
  }
  onStopSignal(
    () => service.close(),
    () => service.server.closeAllConnections(),
  );
}
