/**
 * The long-lived shell: reads the configuration, starts the service, and shuts it down
 * gracefully on SIGTERM or SIGINT (stop accepting, finish in-flight requests, then exit).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createLogger } from './observability/logger.js';
import { createService } from './service.js';

const here = dirname(fileURLToPath(import.meta.url));

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const log = createLogger(config.logLevel);
  const dev = process.argv.includes('--dev');

  const vite = dev
    ? await (await import('vite')).createServer({ server: { middlewareMode: true }, appType: 'custom' })
    : undefined;
  // In production this file is dist/server/index.js, beside dist/client.
  const service = await createService(config, { vite, logger: log, clientDir: dev ? undefined : join(here, '../client') });
  const url = await service.listen();
  log.info({ url, upstream: service.upstreamUrl, dev }, 'listening');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      log.error({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown timed out; closing open connections');
      service.server.closeAllConnections();
      process.exit(1);
    }, config.shutdownTimeoutMs);
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
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
