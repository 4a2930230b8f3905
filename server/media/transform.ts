/**
 * Image work, with sharp (libvips): the header read before anything is decoded (a decompression
 * bomb is refused there), the analysis of an original (size after orientation, opacity, dominant
 * colour), and variants: oriented, converted to sRGB, cut to a named shape when asked, resized
 * (never enlarged, except an SVG, which is drawn at the width asked), the first frame of an
 * animation, every piece of metadata left behind. Variants are made at most `transforms` at once,
 * with a short queue behind them (a concurrency gate): past it, a `busy` problem with Retry-After,
 * so that a burst of new images never takes the cores page renders need. Analyses have a lane of
 * their own.
 */
import sharp, { type Metadata, type SharpOptions } from 'sharp';
import { cropWidth, MEDIA_CROPS, type MediaCrop } from '../../shared/media-url.js';
import { ConcurrencyGate, type GateRefusal } from '../reliability/concurrency-gate.js';
import { mediaError } from './origin-client.js';
import type { ImageType } from './media-types.js';

export type OutputFormat = 'avif' | 'webp' | 'jpeg' | 'png';

export const OUTPUT_CONTENT_TYPE: Record<OutputFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

/**
 * Encoder settings, chosen by measurement on camera-sized photographs (docs/decisions/023,
 * bench/media.js): AVIF at effort 2 is within 2 % of the size of effort 4 at a tenth of the
 * time; WebP and mozjpeg at these qualities look alike at a phone's density.
 */
const ENCODERS = {
  avif: { quality: 50, effort: 2 },
  webp: { quality: 75, effort: 4 },
  jpeg: { quality: 78, mozjpeg: true },
  png: { compressionLevel: 8, effort: 4 },
} as const;

/**
 * Waiting transforms per slot: the first view of a page names a few dozen images nothing has made
 * yet, and each must wait rather than fail; past the queue (a flood of new images) the answer is
 * 503 at once, and no transform waits longer than IMAGE_WAIT_MS.
 */
const QUEUE_PER_SLOT = 16;
/**
 * The longest image work waits for a slot (a transform, an analysis, an original in hand). A
 * picture the visitor's page names is worth waiting for: a browser holds at most six requests to
 * us, and a refusal is a broken picture. On two busy cores a camera photo's AVIF can take two
 * seconds, and a page's few dozen queue behind it; what keeps a flood off the cores is the
 * queue's length, never this wait (docs/decisions/023). Under the edge's and ingress's 60 s.
 */
export const IMAGE_WAIT_MS = 30_000;
/**
 * Analyses (a 64 px copy for the colour) wait in a lane of their own, with half the slots: a first
 * view describes every image its page names at once (forty on the home page), and they must not
 * wait behind, or be refused for, a burst of variants, nor the variants for them. What waits here
 * holds its original's bytes; the originals fetched at once are bounded before it (originals.ts).
 */
const ANALYSIS_QUEUE = 64;
/** An SVG is never drawn wider than the widest variant. */
const MAX_SVG_WIDTH = 2400;

/** What is known of an image once it has been looked at. */
export interface ImageFacts {
  /** Pixels, after orientation (for an SVG, its own size). */
  width: number;
  height: number;
  /** False when any pixel is transparent. */
  opaque: boolean;
  /** The dominant colour, `#rrggbb`, for a placeholder. */
  color: string;
}

/** What the memory budget decides of image work (settings/memory-budget.ts, docs/decisions/055). */
export interface TransformMemory {
  /** Transforms at once. */
  transforms: number;
  /** libvips threads per transform (sharp.concurrency). */
  threads: number;
  /** Asked before a transform starts: near the memory limit it waits for room, and throws `busy` if none comes (memory-pressure.ts). */
  room?: ((waitMs: number) => Promise<void>) | undefined;
}

export interface TransformerOptions extends TransformMemory {
  maxPixels: number;
  timeoutMs: number;
  onRefused?: (why: GateRefusal) => void;
}

/** How long a new transform waits for the resident set to fall back under the memory line before it is refused. */
const ROOM_WAIT_MS = 10_000;

const hex = (n: number) => n.toString(16).padStart(2, '0');

export class Transformer {
  readonly #variants: ConcurrencyGate;
  readonly #analyses: ConcurrencyGate;
  readonly #maxPixels: number;
  readonly #timeoutS: number;
  readonly #room: TransformMemory['room'];

  constructor(options: TransformerOptions) {
    // `threads` libvips threads per transform: `transforms` × `threads` bounds the cores image work
    // takes. No operation cache (docs/decisions/055): every original is decoded once per variant,
    // and what libvips holds is only what transforms under way use.
    sharp.concurrency(options.threads);
    sharp.cache(false);
    this.#room = options.room;
    this.#variants = new ConcurrencyGate(options.transforms, options.transforms * QUEUE_PER_SLOT, IMAGE_WAIT_MS, options.onRefused, {
      many: 'image transforms',
      one: 'image transform',
    });
    this.#analyses = new ConcurrencyGate(Math.ceil(options.transforms / 2), ANALYSIS_QUEUE, IMAGE_WAIT_MS, options.onRefused, {
      many: 'image analyses',
      one: 'image analysis',
    });
    this.#maxPixels = options.maxPixels;
    this.#timeoutS = Math.max(1, Math.ceil(options.timeoutMs / 1000));
  }

  /**
   * Input options for untrusted bytes: the pixel bound checked against the header before any
   * decoding, invalid pixel data refused, the first frame only, read in one pass.
   */
  #input(density?: number): SharpOptions {
    return { limitInputPixels: this.#maxPixels, failOn: 'error', sequentialRead: true, autoOrient: true, animated: false, density };
  }

  /**
   * The image's size from its header alone, before anything is decoded: refuses one that
   * declares more than MEDIA_MAX_PIXELS (a decompression bomb) or cannot be read.
   */
  async header(bytes: Buffer, type: ImageType): Promise<{ width: number; height: number }> {
    if (type === 'svg' && /<!ENTITY/i.test(bytes.toString('utf8', 0, Math.min(bytes.length, 64 * 1024)))) {
      throw mediaError('undecodable', 'an SVG that declares entities is refused');
    }
    let meta: Metadata;
    try {
      meta = await sharp(bytes, this.#input()).metadata();
    } catch (error) {
      if (/pixel limit/i.test(String(error))) {
        throw mediaError('too_many_pixels', `the image declares more than ${this.#maxPixels} pixels`);
      }
      throw mediaError('undecodable', `the image cannot be read: ${String((error as Error).message ?? error)}`);
    }
    const width = meta.autoOrient?.width ?? meta.width;
    const height = meta.autoOrient?.height ?? meta.height;
    if (!width || !height) throw mediaError('undecodable', 'the image has no size');
    return { width, height };
  }

  /** No variant is being made or waits for a slot. */
  get idle(): boolean {
    return this.#variants.inFlight === 0 && this.#variants.queued === 0;
  }

  /** Opacity and the dominant colour, from a small copy (JPEG and WebP shrink while decoding). */
  async analyse(bytes: Buffer, type: ImageType): Promise<Pick<ImageFacts, 'opaque' | 'color'>> {
    return this.#analyses.run(async () => {
      const small = await this.#run(() =>
        sharp(bytes, this.#input(type === 'svg' ? 72 : undefined))
          .resize(64, 64, { fit: 'inside', withoutEnlargement: true })
          .png()
          .toBuffer(),
      );
      const stats = await sharp(small).stats();
      const { r, g, b } = stats.dominant;
      return { opaque: stats.isOpaque, color: `#${hex(r)}${hex(g)}${hex(b)}` };
    });
  }

  /**
   * A variant `width` pixels wide (at most the original's, or its cut part's, but for an SVG) in
   * `format`, with no metadata; cut to `crop` when given: the whole picture is scaled so that the
   * part the shape keeps is `width` wide, then that part is taken.
   */
  async variant(
    bytes: Buffer,
    type: ImageType,
    facts: Pick<ImageFacts, 'width' | 'height'>,
    width: number,
    format: OutputFormat,
    crop?: MediaCrop,
  ): Promise<{ body: Buffer; width: number; height: number }> {
    return this.#variants.run(async () => {
      await this.#room?.(ROOM_WAIT_MS);
      const kept = crop ? cropWidth(crop, facts.width, facts.height) : facts.width;
      const wanted = type === 'svg' ? Math.min(width, MAX_SVG_WIDTH) : Math.min(width, kept);
      // The whole picture's width for that: its own at most (an SVG is drawn at any width).
      const whole = Math.round((wanted * facts.width) / kept);
      // An SVG is drawn at the density that gives that width (72 dpi is its own size).
      const density = type === 'svg' ? Math.min(100_000, Math.max(1, (72 * whole) / facts.width)) : undefined;
      let pipeline = sharp(bytes, this.#input(density))
        .timeout({ seconds: this.#timeoutS })
        .resize({ width: whole, withoutEnlargement: type !== 'svg' });
      // Its height as scaled, never past the scaled picture's edge.
      if (crop) pipeline = pipeline.extract(cutOf(crop, whole, Math.floor((whole * facts.height) / facts.width)));
      if (format === 'jpeg') pipeline = pipeline.flatten({ background: '#ffffff' });
      pipeline = pipeline[format](ENCODERS[format]);
      const { data, info } = await this.#run(() => pipeline.toBuffer({ resolveWithObject: true }));
      return { body: data, width: info.width, height: info.height };
    });
  }

  /** Runs sharp work, turning its failures into problems: a bomb, undecodable data, a timeout. */
  async #run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      const message = String((error as Error).message ?? error);
      if (/pixel limit/i.test(message)) throw mediaError('too_many_pixels', `the image has more than ${this.#maxPixels} pixels`);
      if (/timeout/i.test(message)) throw mediaError('timeout', `the image could not be transformed within ${this.#timeoutS} s`);
      throw mediaError('undecodable', `the image cannot be transformed: ${message}`);
    }
  }
}

/** The part of a `width` × `height` picture a crop keeps: the whole height of a wider one at its anchor side, else its middle. */
function cutOf(crop: MediaCrop, width: number, height: number) {
  const kept = cropWidth(crop, width, height);
  const tall = Math.min(height, Math.round(kept / MEDIA_CROPS[crop].aspect));
  return { left: MEDIA_CROPS[crop].anchor === 'right' ? width - kept : 0, top: Math.round((height - tall) / 2), width: kept, height: tall };
}
