/**
 * How the browser suites start Debian's Chromium: the project's flags, and the features turned
 * off. No test runner here: vitest's global setup (chromium-server.ts) and the benchmarks read it
 * too.
 */

/**
 * Features of Chromium that playwright-core turns off itself (its chromiumSwitches.ts, version
 * 1.65). Chromium reads only the last --disable-features it is given, so the flag below names
 * them again; test/chromium-launch.test.ts fails when Playwright's own list names one this lacks.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * The address bar's suggestion popups, web pages of Chromium's own (chrome://omnibox-popup):
 * every new window, which is every new browser context, starts two renderers for them. A test
 * never types in the address bar; without them a context's first visit costs about a third less
 * (docs/decisions/046).
 */
export const UNUSED_BROWSER_UI = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * The spare renderer Chromium starts after a navigation, ready for the next one: it belongs to one
 * browser context, and a suite's next page most often opens in a new context, which starts a
 * renderer of its own while the spare is thrown away. Without it a new context's visit costs
 * about a seventh less (docs/decisions/050).
 */
export const NO_SPARE_RENDERER = 'SpareRendererForSitePerProcess';

/** The flags the project starts Debian's Chromium with, for tests and benchmarks alike. */
export const BASE_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The browser suites': the project's flags, and the features above turned off. */
export const CHROMIUM_FLAGS = [
  ...BASE_FLAGS,
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...UNUSED_BROWSER_UI, NO_SPARE_RENDERER].join(',')}`,
];

/**
 * V8 without its optimizing compilers (Maglev, TurboFan): scripts run in its interpreter and its
 * baseline compiler only. A suite's page lives a few seconds and runs its scripts (the app,
 * axe-core, the checks) a few times; compiling them for speed on V8's background threads cost more
 * than it saved: eight pages at four widths, scrolled and checked by axe, took about an eighth less
 * CPU (docs/decisions/052). The language is the same in every tier; only speed differs.
 */
export const NO_OPTIMIZING_JIT = '--js-flags=--max-opt=1';

/**
 * The Chromium the machine project's files share (chromium-server.ts): their checks read what a
 * page draws and holds, not how fast its scripts run. The suites that time what Chromium does after
 * a click start their own with CHROMIUM_FLAGS: V8 as a visitor's browser has it.
 */
export const SHARED_CHROMIUM_FLAGS = [...CHROMIUM_FLAGS, NO_OPTIMIZING_JIT];
