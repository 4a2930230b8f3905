/**
 * Image variants, keyed by the original's content hash, the crop, the width and the format: a changed
 * original has another hash, so an old variant is never served for it. Kept in memory (bounded
 * in bytes) and, with a cache directory, on disk; lru-cache's fetch() makes one transform for
 * any number of requests asking for the same variant at once.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { isContentError } from '../../shared/content-api.js';
import type { Logger } from '../observability/logger.js';
import type { MediaMetrics } from '../observability/metrics.js';
import type { DiskStore } from './disk-store.js';
import { cropWidth, type MediaCrop } from '../../shared/media-url.js';
import type { ImageType } from './media-types.js';
import type { Original } from './originals.js';
import { OUTPUT_CONTENT_TYPE, type OutputFormat, type Transformer } from './transform.js';
import { shrinkLru } from '../reliability/memory-pressure.js';

export interface Variant {
  body: Buffer;
  contentType: string;
  /** Strong: these exact bytes. */
  etag: string;
}

/** Where a variant came from, for metrics and X-Cache. */
export type VariantSource = 'memory' | 'disk' | 'transformed';

interface VariantContext {
  original: Original;
  width: number;
  format: OutputFormat;
  crop: MediaCrop | undefined;
  bytes: () => Promise<{ original: Original; bytes: Buffer }>;
  from?: VariantSource;
}

/** The bytes fetched to make a variant were not the original its key named: ask for the current record again. */
export class OriginalChanged extends Error {}

const strongEtag = (body: Buffer) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

export class Variants {
  readonly #lru: LRUCache<string, Variant, VariantContext>;

  constructor(
    maxBytes: number,
    private readonly transformer: Transformer,
    private readonly disk: DiskStore | undefined,
    private readonly metrics: MediaMetrics,
    private readonly log: Logger,
  ) {
    this.#lru = new LRUCache<string, Variant, VariantContext>({
      maxSize: maxBytes,
      sizeCalculation: (v, key) => v.body.length + key.length + 128,
      fetchMethod: (key, _stale, { context }) => this.#make(key, context),
    });
  }

  get bytesHeld(): number {
    return this.#lru.calculatedSize;
  }

  /** Near the memory limit: the least recently used variants let go until at most `bytes` are held. */
  shrinkTo(bytes: number): void {
    shrinkLru(this.#lru, bytes);
  }

  /** The variant of an original at a width and format, cut to a named shape when given: from memory, from disk, or made now. */
  async get(
    original: Original,
    { width, format, crop }: Pick<VariantContext, 'width' | 'format' | 'crop'>,
    bytes: VariantContext['bytes'],
  ): Promise<{ variant: Variant; from: VariantSource }> {
    const key = variantName(original.hash, width, format, crop);
    const held = this.#lru.get(key);
    if (held) return { variant: held, from: 'memory' };
    const context: VariantContext = { original, width, format, crop, bytes };
    const variant = await this.#lru.fetch(key, { context });
    if (!variant) throw new OriginalChanged('the variant could not be made');
    // A request that joined another's fetch reports where that one found it.
    return { variant, from: context.from ?? 'memory' };
  }

  async #make(key: string, context: VariantContext): Promise<Variant> {
    const stored = await this.disk?.read(key);
    const contentType = OUTPUT_CONTENT_TYPE[context.format];
    if (stored) {
      context.from = 'disk';
      return { body: stored, contentType, etag: strongEtag(stored) };
    }
    const { original, bytes } = await context.bytes();
    if (original.hash !== context.original.hash) throw new OriginalChanged('the original changed while its variant was made');
    const started = performance.now();
    const made = await this.transformer
      .variant(
        bytes,
        original.type as ImageType,
        { width: original.width ?? context.width, height: original.height ?? context.width },
        context.width,
        context.format,
        context.crop,
      )
      .catch((error: unknown) => {
        // A slot refused is counted and logged by the gate; anything else is this original's failure.
        if (!(isContentError(error) && error.code === 'busy')) {
          this.log.warn(
            { source: original.url, width: context.width, format: context.format, err: String(error) },
            'media variant could not be made',
          );
        }
        throw error;
      });
    this.metrics.transformDuration(context.format).observe((performance.now() - started) / 1000);
    context.from = 'transformed';
    void this.disk?.write(key, made.body);
    return { body: made.body, contentType, etag: strongEtag(made.body) };
  }
}

/** The width a variant is served at: the one asked, never wider than the original or the part its crop keeps, but an SVG's. */
export function servedWidth(original: Original, width: number, crop: MediaCrop | undefined): number {
  if (original.type === 'svg') return width;
  return Math.min(width, crop ? cropWidth(crop, original.width!, original.height!) : original.width!);
}

/** A variant's name, in memory and on disk. */
const variantName = (hash: string, width: number, format: OutputFormat, crop: MediaCrop | undefined) =>
  `variants/${hash.slice(0, 2)}/${hash}-${crop ? `${crop}-` : ''}${width}.${format}`;
