/** A content image as the service answers it, for tests that build page data by hand. */
import type { MediaImage } from '../../shared/contract/entities.js';
import { encodeRef, mediaPath, sourceOfAddress } from '../../shared/media-url.js';

/** The image the content API named `path` (on a content API at `origin`), its size not yet learnt. */
export function servedImage(path: string, origin = 'http://content.test'): MediaImage {
  const ref = encodeRef(new URL(path, origin).href);
  return { src: mediaPath(ref, '0', 1080), ref, version: '0' };
}

/**
 * A payload as the service answers it, with each media object (`{ src: '/_media/…' }`) turned back
 * into the source it was made from (a path on the content API, a URL on another origin), so that it
 * can be checked against the contract as the content API sends it, or compared across origins (`pathOnly`).
 */
export function asSent(value: unknown, pathOnly = false): unknown {
  if (Array.isArray(value)) return value.map((item) => asSent(item, pathOnly));
  if (typeof value !== 'object' || value === null) return value;
  const { src } = value as { src?: unknown };
  if (typeof src === 'string' && src.startsWith('/_media/')) {
    const source = sourceOfAddress(src);
    if (source === undefined) throw new Error(`${src} names no source`);
    return pathOnly ? new URL(source, 'http://content.test').pathname : source;
  }
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, asSent(field, pathOnly)]));
}
