/**
 * The long-lived shell: reads the configuration, starts the service, and shuts it down
 * gracefully on SIGTERM or SIGINT (stop accepting, finish in-flight requests, then exit).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtApp, viteApp } from './app-source.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger } from './observability/logger.js';
import { createService } from './service.js';

// In production this file is in dist/server, beside dist/client.
const clientDir = join(dirname(fileURLToPath(import.meta.url)), '../client');

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
}

const config = readConfig();
const log = createLogger(config.LOG_LEVEL);
const dev = process.argv.includes('--dev');
const service = await createService(config, { app: dev ? await viteApp() : builtApp(clientDir), logger: log });
const url = await service.listen();
log.info({ url, upstream: service.upstreamUrl, dev, node: process.version }, 'listening');
// A person at a terminal gets one plain line; logs that go to a file or a collector stay JSON only.
if (process.stdout.isTTY) {
  const content = config.UPSTREAM_URL ? `content API ${config.UPSTREAM_URL}` : 'embedded demo content';
  process.stdout.write(`\n  明瞳眼科 website: ${url.replace('127.0.0.1', 'localhost')}  (${content}, Node ${process.version})\n\n`);
}

let stopping = false;
function stop(signal: string): void {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down: finishing in-flight requests');
  const force = setTimeout(() => {
    log.error({ timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, 'shutdown timed out; closing open connections');
    service.server.closeAllConnections();
    process.exit(1);
  }, config.SHUTDOWN_TIMEOUT_MS);
  force.unref();
  // Exit once the log is written out: exiting during an asynchronous write could put the
  // last lines out of order.
  const exit = (code: number) => log.flush(() => process.exit(code));
  service.close().then(
    () => {
      log.info('stopped');
      exit(0);
    },
    (error: unknown) => {
      log.error({ err: error }, 'shutdown failed');
      exit(1);
    },
  );
}
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));
