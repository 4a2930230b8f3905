/**
 * Vitest's global setup for the machine project: one Chromium, started with the project's flags
 * and V8 without its optimizing compilers (SHARED_CHROMIUM_FLAGS), that every file of the project
 * connects to (launchChromium) instead of starting its own. Each file's pages are in browser
 * contexts of its own; closing a connection closes them and leaves the browser to the others.
 * Stopped when the run ends.
 */
import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { SHARED_CHROMIUM_FLAGS } from './chromium-flags.js';
import { CHROMIUM_PATH } from './launch-chromium.js';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumEndpoint?: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await chromium.launchServer({ executablePath: CHROMIUM_PATH, args: SHARED_CHROMIUM_FLAGS, host: '127.0.0.1' });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
