/**
 * Vitest's global setup: one media cache directory (MEDIA_CACHE_DIR) for every service a project
 * starts on the demo content (start-service.ts), so that what one test file's service learnt of
 * the demo's camera-sized photos (their records: version, size, colour) and the variants it made
 * are read from disk by the next, instead of fetched and worked out again for every file. The
 * tests of the media cache itself give their services a directory of their own or another
 * content API. Removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    demoMediaDir: string;
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'demo-media-'));
  project.provide('demoMediaDir', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}

/** For a service's environment (in a test file): the run's directory on the demo content, nothing on another content API. */
export function demoMediaDir(env: Record<string, string>): { MEDIA_CACHE_DIR?: string } {
  return env.UPSTREAM_URL ? {} : { MEDIA_CACHE_DIR: inject('demoMediaDir') };
}
