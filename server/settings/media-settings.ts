/** The media endpoint's settings (docs/product/media.md), part of the one schema in config.ts. */
import { z } from 'zod';
import { commaList, int } from './setting-kinds.js';

/** An http(s) origin as written in MEDIA_ORIGINS: scheme, host and optional port, nothing else. */
function isOrigin(entry: string): boolean {
  if (!URL.canParse(entry)) return false;
  const url = new URL(entry);
  return /^https?:$/.test(url.protocol) && url.origin === entry.replace(/\/$/, '').toLowerCase();
}

export const MEDIA_SETTINGS = {
  MEDIA_ORIGINS: commaList()
    .refine(
      (entries) => entries.every(isOrigin),
      'each entry must be an http(s) origin (scheme, host and port only), e.g. `https://media.example.cn`',
    )
    .transform((entries) => entries.map((e) => new URL(e).origin))
    .optional()
    .describe(
      'comma-separated origins besides the content API whose images and files `/_media/` may fetch (docs/decisions/023); unset: the content API only',
    ),
  MEDIA_MAX_BYTES: int(64 * 1024, 1024 * 1024 * 1024)
    .default(16 * 1024 * 1024)
    .describe(
      'largest original (image, video or captions) `/_media/` fetches; refused as soon as its Content-Length or the bytes read pass it',
    ),
  MEDIA_MAX_PIXELS: int(1_000, 1_000_000_000)
    .default(50_000_000)
    .describe('largest image, in pixels (width × height as its header declares), decoded; a larger one is refused before decoding'),
  MEDIA_TIMEOUT_MS: int(100, 120_000).default(10_000).describe('whole budget for fetching one original (connection, headers and body)'),
  MEDIA_TRANSFORMS: int(1, 256)
    .optional()
    .describe(
      'image transforms at once (a queue of sixteen per transform waits behind them, each up to 30 s; past the queue, 503 `busy`), and half as many analyses of new originals in a lane of their own; default: one per 256 MiB of the memory budget per process, at most the number of cores (docs/operations/memory.md)',
    ),
  MEDIA_MAKE_AHEAD: z
    .enum(['on', 'off'])
    .default('on')
    .describe(
      'whether the phone-sized AVIF variants of the pictures a rendered page preloads are made in the background, while no visitor’s transform runs or waits (docs/decisions/039); `off`: made when first asked for',
    ),
  MEDIA_CACHE_MAX_BYTES: int(1024 * 1024, 16 * 1024 * 1024 * 1024)
    .optional()
    .describe(
      'bound of the in-memory media caches: three quarters for variants, a quarter for the originals they are made from; unset: its share of the memory budget (`MEMORY_LIMIT_BYTES`), 1/8',
    ),
  MEDIA_CACHE_DIR: z
    .string()
    .min(1)
    .optional()
    .describe(
      'a directory where variants and what is known of each original are kept across restarts (created if missing); unset: memory only',
    ),
  MEDIA_CACHE_DIR_MAX_BYTES: int(1024 * 1024, 1024 * 1024 * 1024 * 1024)
    .default(1024 * 1024 * 1024)
    .describe('bound of `MEDIA_CACHE_DIR`; past it the least recently used files are deleted'),
  MEDIA_FRESH_S: int(1, 86_400)
    .default(300)
    .describe(
      'how long an original is taken as current before its origin is asked again (with its ETag); an address naming the current version never asks',
    ),
};
