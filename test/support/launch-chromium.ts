/**
 * One way to start Debian's Chromium, for the browser suites and the benchmarks alike. It lives in
 * test/support/, which bench/ already reads (flags, media fixtures, page checks), and imports no
 * test runner, so that a benchmark run by tsx can use it.
 */
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_FLAGS } from './chromium-flags.js';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * A Chromium of this process's own. The suites take the default, CHROMIUM_FLAGS; the benchmarks
 * pass BASE_FLAGS, the same flags without the features the suites turn off to start contexts
 * faster: they time what a visitor's browser does.
 */
export function launchOwnChromium(args: readonly string[] = CHROMIUM_FLAGS): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...args] });
}
