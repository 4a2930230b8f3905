/**
 * Configuration from the environment, validated once at start: a bad value stops the service
 * with a message naming the variable. The schema is the one statement of every setting: its
 * keys are the variables' names, the Config type is derived from it, and the table in
 * docs/configuration.md is made from it (`configTable`, checked by test/config.test.ts).
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { parsePartnerKeys } from './partner-key-settings.js';
import { MEDIA_SETTINGS } from './media-settings.js';
import { TRACING_SETTINGS } from './tracing-settings.js';
import { RUM_SETTINGS } from './rum-settings.js';
import { TRUSTED_PROXY_SETTINGS } from './trusted-proxy-settings.js';
import { MEMORY_SETTINGS } from './memory-settings.js';
import { commaList, int } from './setting-kinds.js';

const schema = z.object({
  PORT: int(0, 65_535).default(3000).describe('listening port'),
  HOST: z.string().min(1).default('127.0.0.1').describe('listening address (`0.0.0.0` in the Docker image)'),
  UPSTREAM_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      'the content API; unset starts the embedded content API (invented demo content) on loopback, which with `NODE_ENV=production` needs `CONTENT=demo`',
    ),
  CONTENT: z
    .enum(['demo'])
    .optional()
    .describe(
      '`demo`: with no `UPSTREAM_URL`, serve the embedded demo content (invented hospitals and doctors) even with `NODE_ENV=production`, where the service otherwise refuses to start without `UPSTREAM_URL`; `npm start` sets it; an `UPSTREAM_URL` always wins',
    ),
  PUBLIC_ORIGIN: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe('origin used in canonical links and the sitemap (never the Host header); default `http://localhost:$PORT`'),
  UPSTREAM_CONNECT_TIMEOUT_MS: int(10, 60_000).default(1_000).describe('connect timeout to the content API'),
  UPSTREAM_TIMEOUT_MS: int(10, 120_000).default(3_000).describe('whole budget for one upstream answer (headers and body)'),
  UPSTREAM_MAX_BYTES: int(1_024, 64 * 1024 * 1024)
    .default(1024 * 1024)
    .describe('largest upstream answer accepted'),
  UPSTREAM_CONNECTIONS: int(1, 1_024)
    .default(32)
    .describe('keep-alive connections to the content API, and the most calls under way at once'),
  UPSTREAM_QUEUE: int(0, 100_000)
    .default(256)
    .describe('calls that may wait for a free connection; past it, and past `UPSTREAM_TIMEOUT_MS` of waiting, a miss gets 503 at once'),
  UPSTREAM_BREAKER_THRESHOLD: int(1, 1_000).default(5).describe('consecutive upstream failures that open the circuit breaker'),
  UPSTREAM_BREAKER_COOLDOWN_MS: int(100, 600_000).default(5_000).describe('how long the open circuit keeps calls away before one probe'),
  CACHE_MAX_BYTES: int(1024 * 1024, 4 * 1024 * 1024 * 1024)
    .optional()
    .describe('bound of the proxy cache, in bytes; unset: its share of the memory budget (`MEMORY_LIMIT_BYTES`), 1/16'),
  CACHE_MAX_AGE_MS: int(1, 86_400_000)
    .optional()
    .describe("overrides every path's freshness (each path has its own, see the OpenAPI document)"),
  CACHE_STALE_WHILE_REVALIDATE_S: int(0, 86_400).default(60).describe('after freshness, served stale at once while one refresh runs'),
  CACHE_STALE_IF_ERROR_S: int(0, 7 * 86_400)
    .default(86_400)
    .describe('after freshness, the last good answer stands in when the upstream fails'),
  CACHE_NOT_FOUND_TTL_S: int(1, 3_600).default(10).describe('how long an upstream 404 is cached'),
  RATE_LIMIT_MISSES: int(0, 1_000_000)
    .default(60)
    .describe(
      'calls to the content API per client and window: only the request that makes one spends a point (a cached, shared or stale answer, or waiting for another request’s call, never does; a page at most one), and so do a render that called nothing and left nothing kept and drawing a share card; past it, 429; `0` turns the limit off',
    ),
  RATE_LIMIT_WINDOW_S: int(1, 3_600).default(10).describe('the window of `RATE_LIMIT_MISSES`, in seconds'),
  API_KEYS: commaList()
    .transform((entries, ctx) => {
      try {
        return parsePartnerKeys(entries, 'API_KEYS');
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    })
    .optional()
    .describe(
      "partners' API keys, comma-separated `name:key` pairs (a name of lowercase letters, digits and `-`; a key of 24 to 128 letters, digits, `-` or `_`): a request with `X-API-Key` spends its partner's budget, and an unknown key is refused (401)",
    ),
  API_KEYS_FILE: z
    .string()
    .min(1)
    .optional()
    .describe(
      'a file of `name:key` lines (`#` starts a comment), read at start, for keys kept out of the environment (a mounted secret); used with `API_KEYS`',
    ),
  RATE_LIMIT_MISSES_PER_KEY: int(0, 10_000_000)
    .default(600)
    .describe(
      "each partner's budget of calls to the content API per `RATE_LIMIT_WINDOW_S`, as `RATE_LIMIT_MISSES` is an address's; `0` turns it off",
    ),
  SHED_EVENT_LOOP_LAG_MS: int(0, 10_000)
    .default(200)
    .describe('event-loop lag past which renders and misses get 503 while cached answers are still served; `0` turns shedding off'),
  CLIENT_TIMEOUT_MS: int(1_000, 600_000)
    .default(10_000)
    .describe('how long a client may take to send its headers, or stall while reading an answer, before its connection is closed'),
  MAX_CONNECTIONS: int(1, 1_000_000).default(10_000).describe('open client connections per process; past it, new ones are closed at once'),
  MAX_CONNECTIONS_PER_CLIENT: int(1, 1_000_000)
    .default(100)
    .describe('open connections per client address per process (trusted proxies are not limited)'),
  MAX_URL_BYTES: int(1_024, 65_536)
    .default(8_192)
    .describe('longest request target (path and query) taken; past it, 414 before anything reads it'),
  REQUESTS_PER_TURN: int(0, 10_000)
    .default(8)
    .describe(
      'requests one client address starts in one turn of the event loop; the rest wait for the next turns, in which every waiting client starts its share, so that one client’s many connections cannot put their answers ahead of everyone else’s; `0` turns it off',
    ),
  RENDERS_PER_CLIENT: int(0, 1_000)
    .default(2)
    .describe(
      "page renders one client address runs at once (trusted proxies' clients each count as one): the rest wait their turn, so one client cannot make pages late for others; `0` turns the limit off",
    ),
  PAGE_CACHE_MAX_BYTES: int(0, 4 * 1024 * 1024 * 1024)
    .optional()
    .describe('bound of the rendered-page cache; `0` switches it off; unset: its share of the memory budget (`MEMORY_LIMIT_BYTES`), 1/16'),
  ...TRUSTED_PROXY_SETTINGS,
  REDIS_URL: z
    .url({ protocol: /^rediss?$/ })
    .optional()
    .describe("Redis, the fleet's shared cache tier; unset: a machine's workers share their primary's, and a lone process caches alone"),
  REDIS_TIMEOUT_MS: int(5, 5_000).default(100).describe('budget of any one Redis call; past it the process goes on without Redis'),
  WORKERS: int(1, 256).optional().describe('worker processes serving one port; default: one per CPU when `NODE_ENV=production`, else 1'),
  PURGE_TOKEN: z
    .string()
    .min(16)
    .optional()
    .describe('turns on `POST /admin/purge`, which takes `Authorization: Bearer <token>` (16+ characters); unset: the endpoint is off'),
  WEBHOOK_SECRET: z
    .string()
    .min(16)
    .optional()
    .describe(
      "turns on `POST /admin/webhook`, the content API's publish events signed with HMAC-SHA256 and this secret (and editing the embedded content API)",
    ),
  EDGE_PURGE_URLS: commaList()
    .refine((urls) => urls.every((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol)), 'each entry must be an http(s) URL')
    .optional()
    .describe('comma-separated addresses of the edges (Varnish) that purges are passed on to'),
  SHARE_CARD_CACHE_MAX_BYTES: int(1024 * 1024, 1024 * 1024 * 1024)
    .optional()
    .describe(
      "bound of the drawn share cards kept in memory (each page's og:image, about 60-100 KB each); unset: its share of the memory budget (`MEMORY_LIMIT_BYTES`), 1/32",
    ),
  INDEXNOW_KEY: z
    .string()
    .regex(/^[A-Za-z0-9-]{8,128}$/, 'must be 8 to 128 letters, digits or dashes (IndexNow)')
    .optional()
    .describe(
      'turns on IndexNow: the pages a publish event changes are sent to `INDEXNOW_ENDPOINT`, and the key is served at `/<key>.txt`; needs `PUBLIC_ORIGIN`',
    ),
  INDEXNOW_ENDPOINT: z
    .url({ protocol: /^https?$/ })
    .default('https://api.indexnow.org/indexnow')
    .describe('where IndexNow submissions go (any engine of the protocol shares them with the others)'),
  BAIDU_PUSH_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9]{8,64}$/, 'must be the letters and digits of the token Baidu issued')
    .optional()
    .describe(
      "turns on Baidu's link push (普通收录 API): the pages a publish event changes are sent to `BAIDU_PUSH_ENDPOINT`; needs `PUBLIC_ORIGIN`",
    ),
  BAIDU_PUSH_ENDPOINT: z
    .url({ protocol: /^https?$/ })
    .default('http://data.zz.baidu.com/urls')
    .describe("where Baidu's link push goes (`site` and `token` are added to its query)"),
  EMBEDDED_API_PORT: int(0, 65_535)
    .default(0)
    .describe(
      'port of the embedded content API on loopback (with no `UPSTREAM_URL`); `0` picks a free one; set it to edit the demo content (`npm run edit`)',
    ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info').describe('pino level'),
  METRICS_TOKEN: z
    .string()
    .min(16)
    .optional()
    .describe('when set (16+ characters), `/metrics` and `/status` require `Authorization: Bearer <token>`'),
  METRICS_PORT: int(1, 65_535)
    .optional()
    .describe(
      'serves `/metrics` and `/status` on this port (on `HOST`) and not on the public one; unset: on the public port, to this machine only unless `METRICS_TOKEN` is set',
    ),
  SHUTDOWN_TIMEOUT_MS: int(100, 120_000).default(10_000).describe('longest wait for in-flight requests on SIGTERM/SIGINT'),
  SEARCH_INDEX: z
    .enum(['start', 'first-use'])
    .default('start')
    .describe(
      'when the search index is first built (it is then rebuilt every 10 minutes and changed by every purge): `start`, off the request path as the service starts; `first-use`, when first searched (that search waits for it): for a process that may never be searched',
    ),
  ...MEMORY_SETTINGS,
  ...MEDIA_SETTINGS,
  ...TRACING_SETTINGS,
  ...RUM_SETTINGS,
});

export type Config = z.output<typeof schema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Read the configuration; empty strings count as unset. With `NODE_ENV=production` the content must
 * be named: an UPSTREAM_URL, or the demo content asked for by name (CONTENT=demo), never the
 * invented hospitals of the demo because a variable was mistyped or a secret missing.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(Object.keys(schema.shape).flatMap((key) => (env[key] ? [[key, env[key]]] : [])));
  const parsed = schema
    .refine((c) => env.NODE_ENV !== 'production' || c.UPSTREAM_URL !== undefined || c.CONTENT === 'demo', {
      path: ['UPSTREAM_URL'],
      message:
        "must be set with NODE_ENV=production: the content API's address (e.g. http://content-api:4000); to serve the invented demo content instead, set CONTENT=demo",
    })
    .refine((c) => c.METRICS_PORT === undefined || c.METRICS_PORT !== c.PORT, {
      path: ['METRICS_PORT'],
      message: 'must differ from PORT: it is the internal listener',
    })
    // Search engines are told of public addresses only, never of localhost.
    .refine((c) => c.PUBLIC_ORIGIN !== undefined || (c.INDEXNOW_KEY === undefined && c.BAIDU_PUSH_TOKEN === undefined), {
      path: ['PUBLIC_ORIGIN'],
      message: 'must be set when INDEXNOW_KEY or BAIDU_PUSH_TOKEN is: the addresses sent are on it',
    })
    .safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return { ...parsed.data, PUBLIC_ORIGIN: parsed.data.PUBLIC_ORIGIN?.replace(/\/+$/, ''), API_KEYS: partnerKeys(parsed.data) };
}

/** The keys of API_KEYS and API_KEYS_FILE together; a name or a key given twice is an error. */
function partnerKeys(config: z.output<typeof schema>): { name: string; key: string }[] {
  let fromFile: { name: string; key: string }[] = [];
  if (config.API_KEYS_FILE) {
    let text: string;
    try {
      text = readFileSync(config.API_KEYS_FILE, 'utf8');
    } catch (error) {
      throw new ConfigError(
        `invalid configuration:\n  API_KEYS_FILE: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      );
    }
    const lines = text
      .split('\n')
      .map((line) => line.replace(/#.*/, '').trim())
      .filter(Boolean);
    try {
      fromFile = parsePartnerKeys(lines, 'API_KEYS_FILE');
    } catch (error) {
      throw new ConfigError(`invalid configuration:\n  ${(error as Error).message}`);
    }
  }
  const all = [...(config.API_KEYS ?? []), ...fromFile];
  for (const field of ['name', 'key'] as const) {
    const seen = new Set<string>();
    for (const entry of all) {
      if (seen.has(entry[field]))
        throw new ConfigError(`invalid configuration:\n  API_KEYS: the ${field} of partner ${entry.name} is given twice`);
      seen.add(entry[field]);
    }
  }
  return all;
}

/** The configuration table of docs/configuration.md, made from the schema: variable, default, meaning. */
export function configTable(): string {
  const rows = Object.entries(schema.shape).map(([name, field]) => {
    const fallback = field instanceof z.ZodDefault ? `\`${String(field.def.defaultValue)}\`` : 'unset';
    return `| \`${name}\` | ${fallback} | ${field.description ?? ''} |`;
  });
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}
