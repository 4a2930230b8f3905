/**
 * For a describe block: one test upstream for the block, and a fresh service per test pointed at
 * it. After each test the service is closed and the upstream set back to answering normally.
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startService, type RunningService } from './start-service.js';
import { startTestUpstream, type TestUpstream } from './test-upstream.js';

export interface UpstreamFixture {
  /** The block's upstream (set once beforeAll has run). */
  readonly upstream: TestUpstream;
  /** Start this test's service; `env` adds to UPSTREAM_URL and a 1.5 s upstream budget. */
  start(env?: Record<string, string>): Promise<RunningService>;
}

export function useUpstreamFixture(options: { clientDir?: string } = {}): UpstreamFixture {
  let upstream: TestUpstream | undefined;
  let svc: RunningService | undefined;
  beforeAll(async () => {
    upstream = await startTestUpstream();
  });
  afterEach(async () => {
    await svc?.close();
    svc = undefined;
    upstream!.mode = 'ok';
    upstream!.delayMs = 0;
    upstream!.hold = undefined;
    upstream!.calls.clear();
  });
  afterAll(() => upstream?.stop());
  return {
    get upstream() {
      return upstream!;
    },
    async start(env = {}) {
      svc = await startService({ UPSTREAM_URL: upstream!.url, UPSTREAM_TIMEOUT_MS: '1500', ...env }, options);
      return svc;
    },
  };
}
