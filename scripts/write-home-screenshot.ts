/**
 * `npm run docs:screenshot`: the README's picture of the home page (docs/home.png), drawn by
 * Debian's Chromium from the built site (`npm run build` first) on the embedded content, as a
 * visitor's 1280 px laptop shows its first screen.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS } from '../test/support/chromium-flags.js';

const port = 3987;
const site = spawn(process.execPath, ['dist/server/index.js'], {
  env: { ...process.env, PORT: String(port), LOG_LEVEL: 'warn' },
  stdio: 'inherit',
});
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  for (let tries = 0; ; tries++) {
    const up = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (tries > 300) throw new Error('the site did not become ready');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'networkidle' });
  await page.screenshot({ path: 'docs/home.png' });
} finally {
  await browser.close();
  site.kill('SIGTERM');
  await once(site, 'exit');
}
