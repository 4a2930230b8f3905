import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const IMAGE = 'test/deploy.test.ts';
/**
 * Suites that time what Chromium does after a click: a client-side navigation must paint soon
 * after it for Chromium to count it as one (soft navigations, which web-vitals reports as views of
 * their own), and the next page must not wait behind portraits made on demand by a machine busy
 * with seventy other files; and the one that watches what Chromium draws while a document arrives
 * in pieces (on a machine busy with another browser suite it draws text half-parsed below the
 * first band, which then moves). They run last, by themselves.
 */
const ALONE = ['test/rum-browser.test.ts', 'test/browser.test.ts', 'test/first-frame.test.ts'];

/**
 * The tiers. A test file that drives a tool from Debian's packages (Chromium, redis-server,
 * Varnish, Prometheus, podman: each started through its module in test/support/) belongs to the
 * full tier; every other file (units, the service over HTTP against loopback servers) to the quick
 * tier, which needs nothing but Node and the npm packages. Read from the files' own imports, so
 * a new test lands in the right tier by itself.
 */
const MACHINE_TOOLS =
  /from '(?:\.\.?\/)+support\/(browser|chromium-flags|every-page-pass|redis-server|redis-cluster|varnish|prometheus|image-check)\.js'/;
const testFiles = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .filter((f) => /\.test\.tsx?$/.test(f))
  .map((f) => `test/${f}`);
const needsMachine = testFiles.filter((f) => f !== IMAGE && MACHINE_TOOLS.test(readFileSync(f, 'utf8')));

/**
 * Files that run long for their size. With no record of past runs (a clean checkout), vitest
 * starts a project's largest files first; the every-page pass is a few lines that visit every
 * page in four widths, and started last it kept one worker busy alone at the end.
 */
const LONG_FOR_THEIR_SIZE = ['test/every-page-standard.test.ts', 'test/every-page-large.test.ts'];

/** Vitest's order, with LONG_FOR_THEIR_SIZE first within their project. */
class LongFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const long = (spec: TestSpecification) => LONG_FOR_THEIR_SIZE.some((f) => spec.moduleId.endsWith(f));
    const sorted = await super.sort(files);
    // The base order keeps each project's files together: moving within a project keeps groups and projects in order.
    return sorted
      .map((spec, at) => ({ spec, at }))
      .sort((a, b) =>
        a.spec.project.name === b.spec.project.name ? Number(long(b.spec)) - Number(long(a.spec)) || a.at - b.at : a.at - b.at,
      )
      .map(({ spec }) => spec);
  }
}

export default defineConfig({
  test: {
    environment: 'node',
    // A guard against a hang, not a measure of speed (bench/ measures that): a browser test's first
    // visits wait for photos made on demand beside other suites, and took 15 to 17 s of 30 in a run
    // on a machine slower than usual.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Browser suites start Chromium; two workers suit the two cores.
    maxWorkers: 2,
    sequence: { sequencer: LongFirst },
    setupFiles: ['test/support/fail-on-console.ts'],
    // The demo content's photos, drawn once for every test file (test/support/draw-uploads.ts), and
    // one media cache directory for the services on them (test/support/demo-media-dir.ts).
    globalSetup: ['test/support/draw-uploads.ts', 'test/support/demo-media-dir.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'quick',
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: [IMAGE, ...needsMachine],
          sequence: { groupOrder: 0 },
          // A worker keeps the modules it imported from one file to the next: importing the
          // service anew for each of some fifty files took a sixth of the tier's time. Its files
          // start services of their own and put back the clocks they fake.
          isolate: false,
        },
      },
      // Without isolation too, as the quick tier: each file starts its own service, and connects to
      // the project's one Chromium (test/support/chromium-server.ts; about two CPU-seconds a file).
      {
        extends: true,
        test: {
          name: 'machine',
          include: needsMachine,
          exclude: ALONE,
          sequence: { groupOrder: 0 },
          isolate: false,
          globalSetup: ['test/support/chromium-server.ts'],
        },
      },
      // One after the other, each alone.
      ...ALONE.map((file, i) => ({ extends: true, test: { name: `alone-${i + 1}`, include: [file], sequence: { groupOrder: 1 + i } } })),
      // The image is built from the start of the run on the CPU the tests leave (image-ahead.ts),
      // which is most of a core only once the suites run one at a time; its suite runs it last,
      // alone: a container's network comes and goes on the host's, and Chromium beside it aborts
      // its requests (net::ERR_NETWORK_CHANGED).
      {
        extends: true,
        test: {
          name: 'deploy',
          include: [IMAGE],
          sequence: { groupOrder: 1 + ALONE.length },
          globalSetup: ['test/support/image-ahead.ts'],
        },
      },
    ],
  },
});
