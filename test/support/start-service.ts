/** Starts the real service on a free loopback port, with its logs collected for assertions. */
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { builtApp } from '../../server/app-source.js';
import { loadConfig } from '../../server/settings/config.js';
import { createService, type Service } from '../../server/service.js';
import { demoMediaDir } from './demo-media-dir.js';
import { LIMITS_OFF } from './limits-off.js';

export interface RunningService {
  service: Service;
  url: string;
  logs: Record<string, unknown>[];
  close(): Promise<void>;
}

export async function startService(env: Record<string, string> = {}, options: { clientDir?: string } = {}): Promise<RunningService> {
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const line of String(chunk).split('\n')) if (line) logs.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  // The per-client limits, load shedding and real-user measurement are off unless a test asks for
  // them (LIMITS_OFF): most tests send many misses and renders over many connections from one
  // address, on a machine busy with other test files. The search index is built when first searched: most tests count the calls to the content API.
  // Nothing is made ahead for phones: that work, while test files run side by side, would only
  // make the pictures the browser suites ask for wait.
  const config = loadConfig({
    LOG_LEVEL: 'info',
    ...LIMITS_OFF,
    SEARCH_INDEX: 'first-use',
    MEDIA_MAKE_AHEAD: 'off',
    // On the demo content, the run's media cache directory, unless the test names one.
    ...demoMediaDir(env),
    ...env,
  });
  // At LOG_LEVEL (info unless a test says): every line written is kept for the test to read.
  const service = await createService(config, { logger: pino({ level: config.LOG_LEVEL }, sink), app: builtApp(options.clientDir) });
  const url = await service.listen(0, '127.0.0.1');
  return { service, url, logs, close: () => service.close() };
}
