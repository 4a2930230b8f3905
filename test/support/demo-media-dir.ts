/**
 * Vitest's global setup: one media cache directory (MEDIA_CACHE_DIR) for the run's browser suites
 * (startSiteAndChromium), so that a variant one suite's pages made is read from disk by the next
 * instead of made again from a camera-sized photo. They check what a visitor sees, not how fast a
 * first variant is made (test/media*.test.ts and bench/media.js do, each on a directory of its own
 * or none). Removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    browserSuitesMediaDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'browser-suites-media-'));
  project.provide('browserSuitesMediaDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
