/**
 * Relevance over the demo content, as the service's /api/search and its search page answer: each
 * query a patient might type (test/search/relevance-queries.ts) has its expected item among the
 * first three results; and a query that names a treatment, a hospital or a doctor puts that page
 * first, on the search page too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchAnswer } from '../shared/search.js';
import { startService, type RunningService } from './support/start-service.js';
import { searchOf, searchReady } from './support/search.js';
import { NAMED_FIRST, RELEVANCE_QUERIES } from './search/relevance-queries.js';

const named = (i: { kind: string; title: string }) => `${i.kind} ${i.title}`;

/** The results' titles on the search page, as a visitor reads them (marks, word joiners and no-break spaces gone). */
async function pageTitles(base: string, q: string): Promise<string[]> {
  const html = await (await fetch(`${base}/search?q=${encodeURIComponent(q)}`)).text();
  return Array.from(html.matchAll(/<h2 class="search-result-title">([\s\S]*?)<\/h2>/g), ([, inner]) =>
    inner!
      .replace(/<[^>]*>/g, '')
      .replaceAll('\u2060', '')
      .replaceAll('\u00a0', ' '),
  );
}

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
      expect(answer.items.slice(0, 3).map(named)).toContain(named(c.expect));
    },
  );

  it.each(NAMED_FIRST.map((c) => [c.query, c.what, c] as const))(
    '%s (%s): the page it names comes first, in the API, in a suggestion-sized answer and on the search page',
    async (_q, _what, c) => {
      const answer = await searchOf(svc.url, { q: c.query });
      expect(named(answer.items[0]!)).toBe(named(c.expect));
      // The header's suggestions ask for six: the same six, in the same order.
      const few = await searchOf(svc.url, { q: c.query, pageSize: 6 });
      expect(few.items.map(named)).toEqual(answer.items.slice(0, 6).map(named));
      expect((await pageTitles(svc.url, c.query)).slice(0, 3)).toEqual(answer.items.slice(0, 3).map((i) => i.title));
    },
  );
});
