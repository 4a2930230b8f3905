/**
 * Relevance over the demo content: each query a patient might type (test/search/relevance-queries.ts)
 * has its expected item among the first three results, as the service's /api/search answers them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchAnswer } from '../shared/search.js';
import { startService, type RunningService } from './support/start-service.js';
import { searchOf, searchReady } from './support/search.js';
import { RELEVANCE_QUERIES } from './search/relevance-queries.js';

describe('search relevance over the demo content', () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService();
    await searchReady(svc.url);
  });
  afterAll(() => svc.close());

  it('has at least 25 queries, of every sort', () => {
    expect(RELEVANCE_QUERIES.length).toBeGreaterThanOrEqual(25);
  });

  it.each(RELEVANCE_QUERIES.map((c) => [c.query, c.what, c] as const))(
    '%s (%s): the expected item is in the top three',
    async (_q, _what, c) => {
      const answer: SearchAnswer = await searchOf(svc.url, { q: c.query });
      const top = answer.items.slice(0, 3).map((i) => `${i.kind} ${i.title}`);
      expect(top).toContain(`${c.expect.kind} ${c.expect.title}`);
    },
  );
});
