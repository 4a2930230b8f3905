/** The picture a page is shared with (og:image), chosen in one place. */
import { SHARE_CARD_HEIGHT, SHARE_CARD_WIDTH, shareCardPath, type CardAddress } from './share-card-address.js';

export interface ShareImage {
  /** Absolute, on PUBLIC_ORIGIN. */
  url: string;
  width: number;
  height: number;
  type: string;
  alt: string;
}

/**
 * Every page is shared with its card (the group's branding and the page's title). Where an item
 * has a photo of its own at share size (at least 1200 × 630) this is the place to return that
 * instead: the head, the tests and the documentation read the choice from here only.
 */
export function shareImage(origin: string, card: CardAddress, title: string): ShareImage {
  return { url: origin + shareCardPath(card), width: SHARE_CARD_WIDTH, height: SHARE_CARD_HEIGHT, type: 'image/png', alt: title };
}
