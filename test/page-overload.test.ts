/**
 * An overload shows one page, whenever it is found: refused before its render (the event loop is
 * late) or while its loaders run (no slot for a call to the content API), a page request gets the
 * same small 503 page with Retry-After (docs/decisions/020 and 027).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUSY_HTML } from '../server/render/plain-pages.js';
import { startService } from './support/start-service.js';
import { startTestUpstream, type TestUpstream } from './support/test-upstream.js';

let upstream: TestUpstream;
let svc: Awaited<ReturnType<typeof startService>>;
beforeAll(async () => {
  upstream = await startTestUpstream();
  // One connection to the content API and no queue: a call while another is under way is refused as busy.
  svc = await startService({ UPSTREAM_URL: upstream.url, UPSTREAM_CONNECTIONS: '1', UPSTREAM_QUEUE: '0' });
});
afterAll(async () => {
  await svc.close();
  await upstream.stop();
});

describe('a page refused for overload while its loaders run', () => {
  it('is the page a render refused before it starts gets', async () => {
    upstream.delayMs = 30_000;
    // Holds the one connection until the upstream answers.
    const holding = fetch(`${svc.url}/api/banner`).catch(() => undefined);
    await expect.poll(() => upstream.totalCalls(), { timeout: 5_000, message: 'the call that holds the connection' }).toBeGreaterThan(0);
    const page = await fetch(`${svc.url}/jtjj/qywh`);
    expect(page.status).toBe(503);
    expect(page.headers.get('retry-after')).toBe('1');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(await page.text()).toBe(BUSY_HTML);
    expect(svc.logs).toContainEqual(expect.objectContaining({ url: '/jtjj/qywh', status: 503, cache: 'REFUSED' }));
    upstream.delayMs = 0;
    await holding;
  });
});
