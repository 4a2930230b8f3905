/**
 * Configuration from the environment, validated once at start. A bad value stops the service
 * with a message naming the variable.
 */
import { z } from 'zod';

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const schema = z.object({
  PORT: int(0, 65_535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** The content API. Unset: the embedded content API is started on loopback. */
  UPSTREAM_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** Public origin used in canonical links and the sitemap (never taken from the Host header). */
  PUBLIC_ORIGIN: z.url({ protocol: /^https?$/ }).optional(),
  UPSTREAM_CONNECT_TIMEOUT_MS: int(10, 60_000).default(1_000),
  /** Whole budget for one upstream answer, headers and body. */
  UPSTREAM_TIMEOUT_MS: int(10, 120_000).default(3_000),
  UPSTREAM_MAX_BYTES: int(1_024, 64 * 1024 * 1024).default(1024 * 1024),
  UPSTREAM_CONNECTIONS: int(1, 1_024).default(32),
  /** Consecutive upstream failures that open the circuit breaker. */
  UPSTREAM_BREAKER_THRESHOLD: int(1, 1_000).default(5),
  UPSTREAM_BREAKER_COOLDOWN_MS: int(100, 600_000).default(5_000),
  CACHE_MAX_BYTES: int(1024 * 1024, 4 * 1024 * 1024 * 1024).default(64 * 1024 * 1024),
  /** Overrides every path's freshness (milliseconds); unset, each path has its own. */
  CACHE_MAX_AGE_MS: int(1, 86_400_000).optional(),
  CACHE_STALE_WHILE_REVALIDATE_S: int(0, 86_400).default(60),
  CACHE_STALE_IF_ERROR_S: int(0, 7 * 86_400).default(86_400),
  CACHE_NOT_FOUND_TTL_S: int(1, 3_600).default(10),
  /** Bound of the rendered-page cache; 0 switches it off (every page is rendered afresh). */
  PAGE_CACHE_MAX_BYTES: int(0, 4 * 1024 * 1024 * 1024).default(64 * 1024 * 1024),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** When set, /metrics answers only requests bearing `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.string().min(16).optional(),
  SHUTDOWN_TIMEOUT_MS: int(100, 120_000).default(10_000),
});

export type Env = z.input<typeof schema>;

export interface Config {
  port: number;
  host: string;
  upstreamUrl: string | undefined;
  publicOrigin: string | undefined;
  upstream: {
    connectTimeoutMs: number;
    timeoutMs: number;
    maxBytes: number;
    connections: number;
    breakerThreshold: number;
    breakerCooldownMs: number;
  };
  cache: {
    maxBytes: number;
    maxAgeOverrideMs: number | undefined;
    staleWhileRevalidateS: number;
    staleIfErrorS: number;
    notFoundTtlS: number;
  };
  pageCacheMaxBytes: number;
  logLevel: z.infer<typeof schema>['LOG_LEVEL'];
  metricsToken: string | undefined;
  shutdownTimeoutMs: number;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Read the configuration; empty strings count as unset. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const present = Object.fromEntries(
    Object.keys(schema.shape).flatMap((key) => (env[key] ? [[key, env[key]]] : [])),
  );
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    upstreamUrl: e.UPSTREAM_URL,
    publicOrigin: e.PUBLIC_ORIGIN?.replace(/\/+$/, ''),
    upstream: {
      connectTimeoutMs: e.UPSTREAM_CONNECT_TIMEOUT_MS,
      timeoutMs: e.UPSTREAM_TIMEOUT_MS,
      maxBytes: e.UPSTREAM_MAX_BYTES,
      connections: e.UPSTREAM_CONNECTIONS,
      breakerThreshold: e.UPSTREAM_BREAKER_THRESHOLD,
      breakerCooldownMs: e.UPSTREAM_BREAKER_COOLDOWN_MS,
    },
    cache: {
      maxBytes: e.CACHE_MAX_BYTES,
      maxAgeOverrideMs: e.CACHE_MAX_AGE_MS,
      staleWhileRevalidateS: e.CACHE_STALE_WHILE_REVALIDATE_S,
      staleIfErrorS: e.CACHE_STALE_IF_ERROR_S,
      notFoundTtlS: e.CACHE_NOT_FOUND_TTL_S,
    },
    pageCacheMaxBytes: e.PAGE_CACHE_MAX_BYTES,
    logLevel: e.LOG_LEVEL,
    metricsToken: e.METRICS_TOKEN,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
  };
}
