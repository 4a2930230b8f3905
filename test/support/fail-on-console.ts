/** Any console.error or console.warn during a test fails it: nothing is hidden. */
import { afterEach, beforeEach, vi } from 'vitest';

const calls: string[] = [];

beforeEach(() => {
  calls.length = 0;
  for (const level of ['error', 'warn'] as const) {
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      calls.push(`console.${level}: ${args.map(String).join(' ')}`);
    });
  }
});

afterEach(() => {
  vi.restoreAllMocks();
  if (calls.length > 0) throw new Error(`unexpected console output:\n${calls.join('\n')}`);
});
