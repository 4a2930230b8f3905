/** Reading the service's search in tests: its answers, and waiting for its index. */
import { expect, vi } from 'vitest';
import type { SearchAnswer } from '../../shared/search.js';

/** The answer of /api/search for these parameters (a 200 is expected). */
export async function searchOf(base: string, params: Record<string, string | number>): Promise<SearchAnswer> {
  const res = await fetch(`${base}/api/search?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: SearchAnswer }).data;
}

/** Waits until the service's first index is built (before it, /api/search answers 503). */
export async function searchReady(base: string): Promise<void> {
  await vi.waitFor(async () => expect((await fetch(`${base}/api/search?q=a`)).status).toBe(200), {
    timeout: 60_000,
    message: 'the search index',
  });
}
