// What a benchmark's Chromium context needs that a test's does not.
import type { BrowserContext } from 'playwright-core';

/**
 * tsx compiles the benchmarks with esbuild's keepNames, which wraps named functions in a call to
 * `__name`: a function given to page.evaluate (the tests' page checks) then calls it in the page,
 * where it does not exist. Defined there as what it does for the page's purpose: nothing.
 */
export async function keepNamesInPages(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
}
