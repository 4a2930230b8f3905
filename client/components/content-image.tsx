/**
 * A content image as the service answers it (a `MediaImage` on the site's media endpoint,
 * docs/product/media.md): one `<img>` with a srcset of the endpoint's widths and the slot's
 * `sizes`, so that the browser loads the smallest variant that fills the slot at its density.
 * In the standard text size the page is the design scaled to the window (CSS zoom) from 1707 px,
 * and `sizes` says the slot in vw of that layout; in narrower windows the design is held at
 * 1707 / 1920 and its layout flows (docs/decisions/064), and `sizes` says the slot as that layout
 * draws it (`standardSizes`; `designSizes` for a slot of fixed design pixels), exact at every
 * width. In the large-text mode's fluid layout a lazy picture's `sizes` starts with `auto`
 * (the browser takes the width the layout gave it); the first screen's, loaded before the layout
 * is known, say the slot's width in that layout (`largeSizes`).
 * Its box keeps the design's shape (`width`, `height`), so nothing moves when it arrives; until
 * then it shows the picture's dominant colour. The first screen's largest picture (`priority`)
 * is preloaded from the head and fetched first (and its variants for phones made ahead on the
 * server: FirstScreen); every other one waits until it is near. A picture with a `phone` crop
 * is art-directed: a phone gets the part the crop keeps, made for its screen, through `<picture>`;
 * one given `phoneWidest` is offered no wider a variant on a phone, the same way.
 * An image the content API did not give, or gave in a form the service could not use, and one
 * whose address fails to load, leave a placeholder drawn by the stylesheet (global.css): the
 * picture's colour and a neutral mark, never the browser's broken-image icon.
 */
import { createContext, useContext, type CSSProperties } from 'react';
import { preload } from 'react-dom';
import { DESIGN_WIDTH_PX, SCALED_MIN_WIDTH_PX, UNSCALED_MAX_WIDTH_PX } from '../../shared/constants.js';
import type { MediaImage } from '../../shared/contract/entities.js';
import { srcset, type MediaCrop, type MediaWidth } from '../../shared/media-url.js';
import { useLargeText } from '../text-size.js';

/** On the server: told the srcset of each first-screen picture, whose variants for phones are made ahead (server/media/ahead.ts). */
export const FirstScreen = createContext<((srcSet: string) => void) | undefined>(undefined);

/** A phone's layout (the site's phone styles' width). */
const PHONE = `(max-width: ${UNSCALED_MAX_WIDTH_PX}px)`;
/** The standard text size's fluid range: the design held at 1707 / 1920, its layout flowing to the window. */
const FLUID = `(max-width: ${SCALED_MIN_WIDTH_PX - 1}px)`;
const FLUID_SCALE = SCALED_MIN_WIDTH_PX / DESIGN_WIDTH_PX;

/**
 * `sizes` in the standard text size: the slot's width on a phone, in the fluid range (`fluid`:
 * entries for narrower windows first, each with its condition, as the layout's breakpoints fall
 * there: 52, 66 and 80 em of 16 px are windows of 832, 1056 and 1280 px; the last entry bare),
 * and in the scaled layout from 1707 px (a share of the window, as of the design's width).
 */
export function standardSizes(phone: string, fluid: readonly string[], scaled: string): string {
  const ranges = fluid.map((entry, i) => (i === fluid.length - 1 ? `${FLUID} ${entry}` : entry));
  return [`${PHONE} ${phone}`, ...ranges, scaled].join(', ');
}

/**
 * `sizes` for a slot `px` pixels wide in the design: on a phone `phone` (the same pixels unless
 * given), in the fluid range the design's pixels drawn at its factor (unless the layout gives the
 * slot other widths there: `fluid`), and in the scaled layout the same share of the window as of
 * the design's width.
 */
export function designSizes(px: number, phone = `${px}px`, fluid = [`${Math.ceil(px * FLUID_SCALE)}px`]): string {
  return standardSizes(phone, fluid, `${+((px * 100) / DESIGN_WIDTH_PX).toFixed(2)}vw`);
}

export interface ContentImageProps {
  image: MediaImage | undefined;
  /** The slot's width in the layout, as `sizes` says it (`(max-width: 500px) 100vw, 33vw`). */
  sizes: string;
  /** The same in the large-text mode, where the slot is another width (the fluid layout). */
  largeSizes?: string;
  /**
   * The picture fills a box of another shape than its own (taller than it), so it is drawn wider
   * than the box: `sizes` says the width it is drawn at, which the layout's own (`auto`) is not.
   */
  widerThanBox?: boolean;
  /** On a phone, the part of the picture this crop keeps, as wide as `sizes` on a phone says. */
  phone?: MediaCrop;
  /** On a phone, the widest variant offered, whatever the screen's density (CARD_PHONE_WIDEST). */
  phoneWidest?: MediaWidth;
  /** The box's shape, in the design's pixels (CSS sets its width; these set its height). */
  width: number;
  height: number;
  alt?: string;
  className?: string;
  /** The first screen's largest picture: preloaded, fetched first, never lazy. */
  priority?: boolean;
  /**
   * For the layout checks: the sides the picture may lose. An upload has whatever shape its
   * editor gave it and fills the design's box (object-fit: cover), so by default any side.
   */
  bleed?: string;
}

export function ContentImage({
  image,
  sizes: standardSizes,
  largeSizes,
  widerThanBox,
  phone,
  phoneWidest,
  width,
  height,
  alt = '',
  className,
  priority,
  bleed = 'top right bottom left',
}: ContentImageProps) {
  const large = useLargeText();
  const tell = useContext(FirstScreen);
  if (!image) {
    return (
      <span
        className={className ? `${className} media-missing` : 'media-missing'}
        role={alt ? 'img' : undefined}
        aria-label={alt || undefined}
        style={{ aspectRatio: `${width} / ${height}` }}
      />
    );
  }
  const srcSet = srcset(image.ref, image.version, image.width);
  const slot = (large && largeSizes) || standardSizes;
  // Chromium reads `auto` as the width laid out before the page's zoom: in the standard text size's
  // scaled layout that is the design's width, too wide below 1920 px (2.5 times at 768) and too
  // narrow above it; the fluid large-text layout has no zoom, and there `auto` is exact.
  const sizes = priority || widerThanBox || !large ? slot : `auto, ${slot}`;
  const phoneSet = phone
    ? srcset(image.ref, image.version, image.width, phone, image.height)
    : phoneWidest && srcset(image.ref, image.version, Math.min(image.width ?? Infinity, phoneWidest));
  // Preloaded from the server's HTML only, where the link goes ahead of the body for the first
  // paint. In the browser (a client-side navigation) the picture is drawn in the same commit as
  // the link would be added, so the link gains nothing; and where the picture then takes another
  // candidate (one its cache holds), it is a download for nothing, which Chromium warns of.
  if (priority && typeof document === 'undefined') {
    for (const [set, media] of phoneSet ? [[phoneSet, PHONE] as const, [srcSet, '(min-width: 501px)'] as const] : [[srcSet] as const]) {
      tell?.(set);
      preload(set === phoneSet ? widestIn(phoneSet) : image.src, {
        as: 'image',
        imageSrcSet: set,
        imageSizes: sizes,
        fetchPriority: 'high',
        media,
      });
    }
  }
  const style: CSSProperties | undefined = image.color ? { backgroundColor: image.color } : undefined;
  const picture = (
    <img
      className={className}
      src={image.src}
      srcSet={srcSet}
      sizes={sizes}
      alt={alt}
      width={width}
      height={height}
      style={style}
      {...(priority ? { loading: 'eager', fetchPriority: 'high' } : { loading: 'lazy', decoding: 'async' })}
      data-bleed={bleed}
    />
  );
  return phoneSet ? (
    <picture>
      <source media={PHONE} srcSet={phoneSet} sizes={sizes} />
      {picture}
    </picture>
  ) : (
    picture
  );
}

/** The address of a srcset's widest candidate (its last). */
function widestIn(set: string): string {
  return set.slice(set.lastIndexOf(', ') + 2).split(' ')[0]!;
}
