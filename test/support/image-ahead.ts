/**
 * Vitest's global setup for the deploy project: the image is built (image-check.ts, on the CPU
 * the tests leave) from the start of the run, beside the other projects' files, instead of after
 * them while one core waits: a first build on a machine takes minutes. Its outcome is written to a
 * file; test/deploy.test.ts waits for it (`builtAhead`) before it runs the image.
 */
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, vi } from 'vitest';
import type { TestProject } from 'vitest/node';
import { buildImage } from './image-check.js';

declare module 'vitest' {
  export interface ProvidedContext {
    imageAhead: string;
  }
}

interface Outcome {
  image?: string;
  error?: string;
}

export default function setup(project: TestProject): () => Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'image-ahead-'));
  const file = join(dir, 'outcome.json');
  project.provide('imageAhead', file);
  // Written whole, then renamed into place: the test never reads half of it.
  const say = (outcome: Outcome) => {
    writeFileSync(`${file}.tmp`, JSON.stringify(outcome));
    renameSync(`${file}.tmp`, file);
  };
  const building = buildImage().then(
    ({ image }) => say({ image }),
    (error: unknown) => say({ error: String(error) }),
  );
  return async () => {
    await building;
    rmSync(dir, { recursive: true, force: true });
  };
}

/** Waits for the build started ahead, and fails with its error if it failed. */
export async function builtAhead(file: string): Promise<void> {
  await vi.waitFor(() => expect(existsSync(file)).toBe(true), { timeout: 20 * 60_000, interval: 1_000, message: 'the image built ahead' });
  const outcome = JSON.parse(readFileSync(file, 'utf8')) as Outcome;
  if (outcome.error !== undefined) throw new Error(`the image's build failed: ${outcome.error}`);
}
