/**
 * What the content API sent, made into what the service answers (docs/decisions/028): read
 * against the contract item by item (tolerant-read.ts), its HTML sanitised, and each media source
 * (an editor's upload on the content API or a MEDIA_ORIGINS origin) made an address on this
 * site's media endpoint, with the original's size, version and colour when they can be learnt
 * within a short budget. A source on any other origin is dropped like any field that does not fit,
 * and is never fetched.
 */
import { Counter } from 'prom-client';
import { API_PATHS } from '../../shared/contract/api-paths.js';
import { imageSource, type MediaFile, type MediaImage } from '../../shared/contract/entities.js';
import { encodeRef, filePath, mediaPath, srcset } from '../../shared/media-url.js';
import { RefusedAddress, type SourcePolicy } from '../media/media-address.js';
import type { MediaDescription } from '../media/media-types.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { upstreamError } from '../upstream/upstream-client.js';
import type { ApiRequest } from './api-request.js';
import { sanitizeHtmlFragment } from './sanitize-content.js';
import { readTolerantly } from './tolerant-read.js';

/**
 * How long reading an answer waits to learn its images' sizes (fetching the originals it has not
 * seen): past it, an image is answered without them, and the fetch goes on for the next answer.
 */
const DESCRIBE_BUDGET_MS = 1_500;
/** The variant an image's `src` names: wide enough for any column at 2×, a tenth of the original's bytes. */
const DEFAULT_WIDTH = 1080;

export interface ContentReaderDeps {
  /** Which media sources may be used (the content API's origin and MEDIA_ORIGINS). */
  policy: SourcePolicy;
  /** An original's size, version and colour within a budget (the media endpoint's). */
  describe(source: string, options: { budgetMs: number }): Promise<MediaDescription | undefined>;
  metrics: Metrics;
  log: Logger;
}

interface PendingImage {
  image: MediaImage;
  source: string;
}

/**
 * The payload of an answer as the service answers it, but for what only fetching its images can
 * tell (their size, version and colour): read against the contract, media made addresses on this
 * site (`images`, to be filled in in place), HTML sanitised. An UpstreamError ('invalid') when nothing of it is usable.
 */
export function readPayload(
  request: ApiRequest,
  json: unknown,
  policy: SourcePolicy,
  dropped: (field: string, sent: unknown) => void,
): { data: unknown; images: PendingImage[] } {
  if (typeof json !== 'object' || json === null || !('data' in json)) {
    throw upstreamError('invalid', "the content API's answer has no `data`");
  }
  const images: PendingImage[] = [];
  const read = readTolerantly(API_PATHS[request.name].data, json.data, {
    dropped,
    html: (fragment) =>
      sanitizeHtmlFragment(fragment, (sent) => {
        const source = imageSource.safeParse(sent).success ? policy.resolve(sent) : undefined;
        if (!source || source instanceof RefusedAddress) return undefined;
        const ref = encodeRef(policy.canonical(source));
        return { src: mediaPath(ref, '0', DEFAULT_WIDTH), srcset: srcset(ref, '0') };
      }),
    media: (kind, sent) => {
      const source = policy.resolve(sent);
      if (source instanceof RefusedAddress) return undefined;
      const ref = encodeRef(policy.canonical(source));
      if (kind === 'file') return { src: filePath(ref, '0') } satisfies MediaFile;
      const image: MediaImage = { src: mediaPath(ref, '0', DEFAULT_WIDTH), ref, version: '0' };
      images.push({ image, source: source.href });
      return image;
    },
  });
  if (read === undefined) throw upstreamError('invalid', `nothing in the content API's answer for ${request.key} fits the contract`);
  return { data: read, images };
}

export class ContentReader {
  readonly #deps: ContentReaderDeps;
  readonly #dropped: Counter<'path' | 'field'>;
  /** The path and field pairs already logged: each is logged once, however often it recurs. */
  readonly #logged = new Set<string>();

  constructor(deps: ContentReaderDeps) {
    this.#deps = deps;
    this.#dropped = new Counter({
      name: 'content_fields_dropped_total',
      help: "Fields and items of the content API's answers left out because they did not fit the contract, by path and field",
      labelNames: ['path', 'field'],
      registers: [deps.metrics.registry],
    });
  }

  /** The payload the service answers; an UpstreamError ('invalid') when nothing of it is usable. */
  async read(request: ApiRequest, json: unknown): Promise<unknown> {
    const path = API_PATHS[request.name].template;
    const { data, images } = readPayload(request, json, this.#deps.policy, (field, sent) => this.#drop(request, path, field, sent));
    await this.#describe(images);
    return data;
  }

  /** Fills in what the media endpoint learns of each image within the budget. */
  async #describe(images: PendingImage[]): Promise<void> {
    const budgetMs = DESCRIBE_BUDGET_MS;
    await Promise.all(
      images.map(async ({ image, source }) => {
        const described = await this.#deps.describe(source, { budgetMs });
        if (!described) return;
        image.version = described.v;
        // An SVG is drawn at any width: its size would only hold its srcset back.
        if (described.type !== 'svg') {
          image.width = described.width;
          image.height = described.height;
        }
        // A picture with transparent parts shows its background: only an opaque one gets its colour.
        if (described.opaque) image.color = described.color;
        image.src = mediaPath(image.ref, described.v, DEFAULT_WIDTH);
      }),
    );
  }

  #drop(request: ApiRequest, path: string, field: string, sent: unknown): void {
    this.#dropped.labels(path, field).inc();
    const key = `${path} ${field}`;
    if (this.#logged.has(key)) return;
    this.#logged.add(key);
    const shown = typeof sent === 'string' ? sent.slice(0, 200) : JSON.stringify(sent)?.slice(0, 200);
    this.#deps.log.warn(
      { path, field, key: request.key, sent: shown },
      'content left out: it does not fit the contract (logged once per path and field)',
    );
  }
}
