/**
 * Vitest's global setup: draws the embedded content API's photos once, before any test asks for
 * them (server/embedded-api/uploads.ts keeps them in a directory every process shares), so that
 * no test waits for a first drawing and a clean machine pays for them once.
 */
import { demoContent } from '../../server/embedded-api/demo-content/index.js';
import { drawAll } from '../../server/embedded-api/uploads.js';

/** Every `/uploads/` path in a value (the demo content, an answer), in fields and in HTML. */
export function uploadPaths(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') for (const [path] of value.matchAll(/\/uploads\/[A-Za-z0-9/_-]+\.[A-Za-z0-9]+/g)) found.push(path);
  else if (Array.isArray(value)) for (const item of value) uploadPaths(item, found);
  else if (typeof value === 'object' && value !== null) for (const field of Object.values(value)) uploadPaths(field, found);
  return found;
}

export default async function setup(): Promise<void> {
  await drawAll([...new Set(uploadPaths(demoContent))]);
}
