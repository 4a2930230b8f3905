/**
 * A content image as the service answers it (a `MediaImage` on the site's media endpoint,
 * docs/product/media.md): one `<img>` with a srcset of the endpoint's widths and the slot's
 * `sizes`, so that the browser loads the smallest variant that fills the slot at its density.
 * Its box keeps the design's shape (`width`, `height`), so nothing moves when it arrives; until
 * then it shows the picture's dominant colour. The first screen's largest picture (`priority`)
 * is preloaded from the head and fetched first; every other one waits until it is near.
 * An image the content API did not give, or gave in a form the service could not use, and one
 * whose address fails to load, leave a placeholder drawn by the stylesheet (global.css): the
 * picture's colour and a neutral mark, never the browser's broken-image icon.
 */
import type { CSSProperties } from 'react';
import { preload } from 'react-dom';
import type { MediaImage } from '../../shared/contract/entities.js';
import { srcset } from '../../shared/media-url.js';

export interface ContentImageProps {
  image: MediaImage | undefined;
  /** The slot's width in the layout, as `sizes` says it (`(max-width: 500px) 100vw, 33vw`). */
  sizes: string;
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
  sizes,
  width,
  height,
  alt = '',
  className,
  priority,
  bleed = 'top right bottom left',
}: ContentImageProps) {
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
  if (priority) preload(image.src, { as: 'image', imageSrcSet: srcSet, imageSizes: sizes, fetchPriority: 'high' });
  const style: CSSProperties | undefined = image.color ? { backgroundColor: image.color } : undefined;
  return (
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
}
