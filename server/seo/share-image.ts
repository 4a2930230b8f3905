/** The picture a page is shared with (og:image), chosen in one place. */
import type { MediaImage } from '../../shared/contract/entities.js';
import { mediaPath } from '../../shared/media-url.js';
import { SHARE_CARD_HEIGHT, SHARE_CARD_WIDTH, shareCardPath, type CardAddress } from './share-card-address.js';

export interface ShareImage {
  /** Absolute, on PUBLIC_ORIGIN. */
  url: string;
  width: number;
  height: number;
  /** Known for a card (PNG); a photo's format is what the reader's Accept asks for. */
  type?: string | undefined;
  alt: string;
}

/** The media endpoint's width a shared photo is given (never wider than its original). */
const SHARED_WIDTH = 1600;

/**
 * A page is shared with its own picture (an article's cover, an expert's portrait) through the
 * media endpoint when it is at least 1200 × 630 as served and its version is known (its address is
 * then kept a year); every other page with its card, the group's branding and the page's title.
 * The head, the tests and the documentation read the choice from here only.
 */
export function shareImage(origin: string, card: CardAddress, title: string, photo?: MediaImage): ShareImage {
  if (photo?.width && photo.height && photo.version !== '0') {
    const width = Math.min(SHARED_WIDTH, photo.width);
    const height = Math.round((width * photo.height) / photo.width);
    if (width >= SHARE_CARD_WIDTH && height >= SHARE_CARD_HEIGHT) {
      return { url: origin + mediaPath(photo.ref, photo.version, SHARED_WIDTH), width, height, alt: title };
    }
  }
  return { url: origin + shareCardPath(card), width: SHARE_CARD_WIDTH, height: SHARE_CARD_HEIGHT, type: 'image/png', alt: title };
}
