import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Browser suites start Chromium; two workers suit the two cores.
    maxWorkers: 2,
    setupFiles: ['test/support/fail-on-console.ts'],
  },
});
