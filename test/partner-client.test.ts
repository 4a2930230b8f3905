/**
 * The partner client (examples/partner-client): its types are those openapi-typescript makes
 * from the live document (a stale file fails, naming the command that regenerates it), and its
 * example, openapi-fetch with those types, lists the news of the running service.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listNews } from '../examples/partner-client/list-news.js';
import { API_TYPES_FILE, apiTypes } from '../scripts/api-types.js';
import { startService, type RunningService } from './support/start-service.js';

describe('the partner client', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc?.close());

  it('is typed by the live document', async () => {
    const generated = await apiTypes((await (await fetch(`${svc.url}/api/openapi.json`)).json()) as object);
    const committed = readFileSync(API_TYPES_FILE, 'utf8');
    expect(committed === generated, `${API_TYPES_FILE} is stale: run \`npm run api:types\` and commit it`).toBe(true);
  });

  it('lists the news with openapi-fetch', async () => {
    const lines = await listNews(svc.url);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(5);
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d{2}-\d{2} \S/);
  });

  it("turns the API's error into an error that names its code", async () => {
    // Nothing listens on port 9: the content API cannot be reached, and nothing is cached.
    const down = await startService({ UPSTREAM_URL: 'http://127.0.0.1:9', UPSTREAM_BREAKER_THRESHOLD: '1000' });
    try {
      await expect(listNews(down.url)).rejects.toThrow(/^503 upstream_unavailable: /);
    } finally {
      await down.close();
    }
  });
});
