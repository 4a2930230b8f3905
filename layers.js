/**
 * The server's floors, from the top down. A file may import files of its own floor and of the
 * floors below it, never of a floor above: what the service is made of runs one way, from the
 * composition at the top to the settings at the ground (docs/decisions/040). `layerRules` below
 * enforces it in eslint.config.js, README's code map lists the floors (`npm run
 * docs:layers`), and test/layers.test.ts checks that the rule bites.
 */
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

export const LAYERS = [
  {
    name: 'composition',
    files: ['server/*.ts'],
    what: 'index → main → service, workers, app, app-source, listeners, readiness: the service put together from its parts',
  },
  { name: 'operations', files: ['server/operations/**'], what: '/metrics, /status and the service report: read every part' },
  { name: 'rum', files: ['server/rum/**'], what: 'POST /rum: browsers’ Core Web Vitals into histograms by route, device and variant' },
  {
    name: 'render',
    files: ['server/render/**'],
    what: 'pages: the page handler (React stream), the page cache, share cards, robots and sitemaps',
  },
  { name: 'api-docs', files: ['server/api-docs/**'], what: 'the OpenAPI document and /api/docs, from the contract' },
  {
    name: 'seo',
    files: ['server/seo/**'],
    what: 'what a page’s head says (JSON-LD, Open Graph), share-card images, the sitemap’s entries, search engines told',
  },
  {
    name: 'embedded-api',
    files: ['server/embedded-api/**'],
    what: 'the content API’s stand-in, on loopback when no UPSTREAM_URL is set, and its editor',
  },
  { name: 'admin', files: ['server/admin/**'], what: 'the purge API, publish events and the purger: the caches, the fleet, the edges' },
  {
    name: 'search',
    files: ['server/search/**'],
    what: 'the site’s search: its index (in each process), /api/search, highlights (docs/decisions/034, 035)',
  },
  {
    name: 'proxy',
    files: ['server/proxy/**'],
    what: 'the 21 paths: /api/* and the content cache (fresh and stale windows), answers read against the contract',
  },
  {
    name: 'media',
    files: ['server/media/**'],
    what: '/_media/: originals from their origins, variants (sharp) in memory and on disk',
  },
  {
    name: 'fleet',
    files: ['server/fleet/**'],
    what: 'the shared tier (Redis, or the primary’s memory), purge messages between processes, worker messages',
  },
  { name: 'upstream', files: ['server/upstream/**'], what: 'the content API client: undici pool, breaker, gate' },
  {
    name: 'reliability',
    files: ['server/reliability/**'],
    what: 'budgets (Redis or memory), gates and lanes, the breaker, shedding when the event loop is late',
  },
  {
    name: 'http',
    files: ['server/http/**'],
    what: 'the front door, security headers, CORS, slow clients, trusted proxies, problems, representations',
  },
  {
    name: 'observability',
    files: ['server/observability/**'],
    what: 'the request line, metrics, recent errors, diagnostics channels, tracing (OpenTelemetry, when configured)',
  },
  {
    name: 'settings',
    files: ['server/settings/**'],
    what: 'the configuration: one schema (config.ts) from each part’s settings, checked before anything starts',
  },
];

const ground = [...LAYERS].reverse();

/** The floors as a lint rule: from each floor, an import of any floor above it is an error (type-only imports too). */
export const layerRules = {
  files: ['server/**/*.ts'],
  languageOptions: { parser: tseslint.parser },
  plugins: { boundaries },
  settings: {
    // Imports name `.js`; the sources are `.ts`.
    'import/resolver': { typescript: { alwaysTryTypes: true } },
    'boundaries/include': ['server/**'],
    'boundaries/files': ground.map((layer) => ({ category: layer.name, pattern: layer.files })),
    'boundaries/files-single-match': true,
  },
  rules: {
    'boundaries/dependencies': [
      'error',
      {
        default: 'allow',
        policies: ground.slice(0, -1).map((layer, i) => ({
          from: { file: { categories: layer.name } },
          disallow: { to: { file: { categories: { anyOf: ground.slice(i + 1).map((above) => above.name) } } } },
        })),
      },
    ],
  },
};

/**
 * The server renders the app through its SSR entry and reads nothing else of client/: what both
 * sides use (the route table, links, navigation, what each page reads) lives in shared/.
 */
export const serverReadsTheApp = {
  files: ['server/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['**/client/**', '!**/client/entry-server.js'],
            message: 'the server reads the app only through client/entry-server; code both sides use lives in shared/',
          },
        ],
      },
    ],
  },
};

/** The floors as README's table (`npm run docs:layers` writes it; test/layers.test.ts compares). */
export function layersTable() {
  const rows = LAYERS.map((layer, i) => `| ${LAYERS.length - i} | ${layer.files.map((f) => `\`${f}\``).join(' ')} | ${layer.what} |`);
  return ['| floor | files | what it holds |', '| --- | --- | --- |', ...rows].join('\n');
}
