import { defineConfig } from 'vitest/config';

const IMAGE = 'test/deploy.test.ts';

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Browser suites start Chromium; two workers suit the two cores.
    maxWorkers: 2,
    setupFiles: ['test/support/fail-on-console.ts'],
    // The demo content's photos, drawn once for every test file (test/support/draw-uploads.ts).
    globalSetup: ['test/support/draw-uploads.ts'],
    projects: [
      { extends: true, test: { name: 'site', include: ['test/**/*.test.{ts,tsx}'], exclude: [IMAGE], sequence: { groupOrder: 0 } } },
      // Building the image takes both cores for a minute or more: it runs after the rest, alone, so
      // that it never slows the browser suites beside it.
      { extends: true, test: { name: 'deploy', include: [IMAGE], sequence: { groupOrder: 1 } } },
    ],
  },
});
