/**
 * Addresses of the media endpoint (docs/decisions/023), for pages and the server alike: an image
 * variant is `/_media/<width>/<version>/<ref>`, the same cut to a named shape
 * `/_media/<crop>/<width>/<version>/<ref>` (docs/decisions/039), a file passed through
 * `/_media/file/<version>/<ref>`.
 * `ref` is the source URL in base64url without padding; `version` the first 12 hex digits of the
 * SHA-256 of the original's bytes, or `0` when the page does not know it. Small on purpose: it
 * goes into the pages' JavaScript, and works in the browser and in Node.
 */

/** Where every media address starts. */
export const MEDIA_PREFIX = '/_media';

/**
 * The widths a variant may have, in pixels; any other is refused. Thumbnails and avatars at 1×
 * and 2× (96, 192), cards (384, 640), phones at 2× and 3× (828, 1080), a desktop column at 2×
 * (1600) and a full-width banner on a large screen (2400).
 */
export const MEDIA_WIDTHS = [96, 192, 384, 640, 828, 1080, 1600, 2400] as const;
export type MediaWidth = (typeof MEDIA_WIDTHS)[number];

/**
 * The shapes a picture may be cut to, by name: a fixed few, never a size from the address, so
 * that an original has a bounded number of variants. `aspect` is width over height; the cut
 * keeps the whole height of a wider picture and takes its `anchor` side (the whole width of a
 * taller one, its middle); `widest` is the widest variant of it (a wider width is refused).
 */
export const MEDIA_CROPS = {
  /**
   * The home banner on a phone: the right of the picture, where the banners draw their subject,
   * at most 1080 px wide: a 390 px phone's screen at 2.77×, which a 3× screen draws 8 % larger
   * without a visible difference in a photograph, for half the bytes of the next width.
   */
  'right-2x1': { aspect: 2, anchor: 'right', widest: 1080 },
} as const;
export type MediaCrop = keyof typeof MEDIA_CROPS;

/** A version: 12 lowercase hex digits, or `0` for "not known yet". */
export const VERSION_PATTERN = /^(?:0|[0-9a-f]{12})$/;
/** The longest ref accepted (a source URL of about 1.5 KB). */
const MAX_REF_LENGTH = 2048;
const REF_PATTERN = /^[A-Za-z0-9_-]+$/;

/** A source URL (or a path on the content API) as a ref: its UTF-8 bytes in base64url, no padding. */
export function encodeRef(url: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(url)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The source URL a ref names; undefined when it is not base64url of UTF-8 text, or too long. */
export function decodeRef(ref: string): string | undefined {
  if (ref.length === 0 || ref.length > MAX_REF_LENGTH || !REF_PATTERN.test(ref) || ref.length % 4 === 1) return undefined;
  try {
    const binary = atob(ref.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    const url = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    // Only the one canonical spelling of each URL is a ref (no stray bits in the last character).
    return encodeRef(url) === ref ? url : undefined;
  } catch {
    return undefined;
  }
}

/** The address of an image variant `width` pixels wide (never wider than the original), cut to `crop` when given. */
export function mediaPath(ref: string, version: string, width: MediaWidth, crop?: MediaCrop): string {
  return `${MEDIA_PREFIX}${crop ? `/${crop}` : ''}/${width}/${version}/${ref}`;
}

/** The width of the part of a `width` × `height` picture that `crop` keeps. */
export function cropWidth(crop: MediaCrop, width: number, height: number): number {
  return Math.min(width, Math.round(height * MEDIA_CROPS[crop].aspect));
}

/** The source a media address (a variant's or a file's, absolute or not) was made from; undefined when its ref is not one. */
export function sourceOfAddress(address: string): string | undefined {
  return decodeRef(address.slice(address.lastIndexOf('/') + 1));
}

/** The address of a file (video, captions) passed through unchanged. */
export function filePath(ref: string, version: string): string {
  return `${MEDIA_PREFIX}/file/${version}/${ref}`;
}

/**
 * A `srcset` for an original `originalWidth` pixels wide (or its part `crop` keeps): each listed
 * width below it, and the first one at or past it, described by the width it is served at
 * (variants are never enlarged). Without a width (not known yet, or an SVG, drawn at any width):
 * every listed width.
 */
export function srcset(ref: string, version: string, originalWidth = Infinity, crop?: MediaCrop, originalHeight = Infinity): string {
  const widest = crop ? Math.min(cropWidth(crop, originalWidth, originalHeight), MEDIA_CROPS[crop].widest) : originalWidth;
  const entries: string[] = [];
  for (const width of MEDIA_WIDTHS) {
    entries.push(`${mediaPath(ref, version, width, crop)} ${Math.min(width, Math.round(widest))}w`);
    if (width >= widest) break;
  }
  return entries.join(', ');
}
