/**
 * A media address checked before anything is fetched, transformed or stored: the width one of
 * the list, the crop (when there is one) one of the named shapes, the version well formed, the
 * ref a URL on an allowed origin, no query string. What fails gets a problem that names it, and
 * costs nothing else.
 */
import { createHash } from 'node:crypto';
import { MEDIA_CROPS, MEDIA_PREFIX, MEDIA_WIDTHS, VERSION_PATTERN, decodeRef, type MediaCrop } from '../../shared/media-url.js';
import type { ContentError } from '../../shared/content-api.js';
import { problem } from '../http/problem.js';
import { FILE_EXTENSION, IMAGE_EXTENSION } from './media-types.js';

/** A checked address; `tag` is its source's purge tag (`mediaTag`). */
export type MediaAddress =
  | { kind: 'image'; width: number; crop: MediaCrop | undefined; version: string; source: URL; tag: string }
  | { kind: 'file'; width?: undefined; crop?: undefined; version: string; source: URL; tag: string };

/** Why an address was refused, for metrics: bounded. */
export type RefusalReason = 'address' | 'origin' | 'extension';

export class RefusedAddress {
  constructor(
    readonly reason: RefusalReason,
    readonly error: ContentError,
  ) {}
}

const WIDTHS = new Set<number>(MEDIA_WIDTHS);

/**
 * Which sources may be fetched: http(s) URLs on the content API's origin or one of
 * MEDIA_ORIGINS, with no credentials. Anything else (another origin, `data:`, `file:`, a private
 * or loopback address that is not configured) is refused before any request is made.
 */
export class SourcePolicy {
  readonly #origins: ReadonlySet<string>;
  readonly #contentApiOrigin: string;

  /** `contentApi`: the content API's base URL, against which paths in refs are resolved. */
  constructor(
    readonly contentApi: string,
    extraOrigins: readonly string[] = [],
  ) {
    this.#contentApiOrigin = new URL(contentApi).origin;
    this.#origins = new Set([this.#contentApiOrigin, ...extraOrigins.map((o) => new URL(o).origin)]);
  }

  /** The source a ref names (an absolute URL, or a path on the content API), when it is allowed. */
  resolve(ref: string): URL | RefusedAddress {
    let url: URL;
    if (/^https?:\/\//i.test(ref)) {
      if (!URL.canParse(ref)) return refused('address', 'the source is not a valid URL');
      url = new URL(ref);
    } else if (ref.startsWith('/') && !ref.startsWith('//')) {
      url = new URL(ref, this.contentApi);
    } else {
      return refused('origin', 'the source must be an http(s) URL or a path on the content API');
    }
    if (url.username || url.password) return refused('origin', 'the source URL must not carry credentials');
    if (!this.#origins.has(url.origin)) return refused('origin', `${url.origin} is not an origin media may be fetched from`);
    url.hash = '';
    return url;
  }

  /**
   * How the site names a source in its addresses and tags: a path for one on the content API
   * (whose origin, often an internal host, is never given out), the URL for one on another origin.
   */
  canonical(source: URL): string {
    return source.origin === this.#contentApiOrigin ? source.pathname + source.search : source.href;
  }
}

function refused(reason: RefusalReason, message: string): RefusedAddress {
  return new RefusedAddress(reason, problem(reason === 'origin' ? 'forbidden' : 'bad_request', message));
}

/** The request target (a path under MEDIA_PREFIX) as an address, or why it is refused. */
export function parseMediaAddress(target: string, policy: SourcePolicy): MediaAddress | RefusedAddress {
  if (target.includes('?')) return refused('address', 'media addresses take no query string');
  const parts = target.slice(MEDIA_PREFIX.length + 1).split('/');
  // A named crop may come before the width: /_media/<crop>/<width>/<version>/<ref>.
  const crop = parts.length === 4 ? parts.shift()! : undefined;
  if (!target.startsWith(`${MEDIA_PREFIX}/`) || parts.length !== 3) {
    return refused(
      'address',
      `a media address is ${MEDIA_PREFIX}/[<crop>/]<width>/<version>/<ref> or ${MEDIA_PREFIX}/file/<version>/<ref>`,
    );
  }
  if (crop !== undefined && !Object.hasOwn(MEDIA_CROPS, crop)) {
    return refused('address', `the crop must be one of ${Object.keys(MEDIA_CROPS).join(', ')}`);
  }
  const [first, version, ref] = parts as [string, string, string];
  if (crop !== undefined && first === 'file') return refused('address', 'a file is passed through whole: it takes no crop');
  if (crop !== undefined && Number(first) > MEDIA_CROPS[crop as MediaCrop].widest) {
    return refused('address', `the crop ${crop} is at most ${MEDIA_CROPS[crop as MediaCrop].widest} px wide`);
  }
  const kind = first === 'file' ? 'file' : 'image';
  const width = kind === 'image' && /^[1-9]\d{0,4}$/.test(first) ? Number(first) : undefined;
  if (kind === 'image' && (width === undefined || !WIDTHS.has(width))) {
    return refused('address', `the width must be one of ${MEDIA_WIDTHS.join(', ')}`);
  }
  if (!VERSION_PATTERN.test(version)) return refused('address', 'the version must be 0 or 12 lowercase hex digits');
  const decoded = decodeRef(ref);
  if (decoded === undefined) return refused('address', 'the ref must be a URL in base64url without padding');
  const source = policy.resolve(decoded);
  if (source instanceof RefusedAddress) return source;
  if (!(kind === 'image' ? IMAGE_EXTENSION : FILE_EXTENSION).test(source.pathname)) {
    return refused(
      'extension',
      kind === 'image' ? 'the source is not an image (by its extension)' : 'the source is not a video or captions file',
    );
  }
  const tag = mediaTag(policy.canonical(source));
  return kind === 'image'
    ? { kind, width: width!, crop: crop as MediaCrop | undefined, version, source, tag }
    : { kind, version, source, tag };
}

/** The first 12 hex digits of the SHA-256 of a string or bytes: versions, tags and file names. */
function shortHash(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex').slice(0, 12);
}

/** What every media tag starts with. */
export const MEDIA_TAG_PREFIX = 'media:';
/** The tag of a source, as SourcePolicy.canonical names it: `media:<12 hex of its SHA-256>`. */
export const mediaTag = (source: string) => `${MEDIA_TAG_PREFIX}${shortHash(String(source))}`;
