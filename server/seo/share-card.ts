/**
 * Share cards: a PNG of 1200 × 630 with the group's branding and a page's title, drawn by sharp
 * (libvips) from an SVG template, the title set by Pango (sharp's text input), which breaks
 * Chinese lines where the language allows and shrinks a title too long for three lines. Text
 * needs a CJK font that fontconfig finds (Debian's fonts-noto-cjk, installed in the image).
 *
 * Each distinct card (its text and this template) is drawn once: kept in memory, bounded in
 * bytes, least recently used first out, and concurrent requests for one card share its drawing.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import sharp from 'sharp';
import { escapeHtml } from '../../shared/escape-json.js';
import { plainLine } from './plain-text.js';
import type { CardText } from './share-card-text.js';
import { SHARE_CARD_HEIGHT as H, SHARE_CARD_WIDTH as W } from './share-card-address.js';
import { shrinkLru } from '../reliability/memory-pressure.js';

/** Changed whenever the drawing changes, so that no card drawn by an older template is served. */
const TEMPLATE_VERSION = '1';
const FONT = 'Noto Sans CJK SC';
const MARGIN = 80;
/** The box the title and its line are set in, below the branding and above the address. */
const TEXT_TOP = 170;
const TEXT_WIDTH = W - 2 * MARGIN;
const TEXT_HEIGHT = 300;
/** Longest title and line drawn, in characters: past three lines a title is shrunk, and past this, cut. */
const TITLE_MAX = 64;
const SUBTITLE_MAX = 40;
const BRAND_MAX = 20;

// Characters XML (and so SVG and Pango markup) cannot hold: C0 controls but tab and newlines, and non-characters.
const NOT_XML =
  // eslint-disable-next-line no-control-regex -- exactly the characters XML 1.0 forbids
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const line = (text: string, max: number) => escapeHtml(plainLine(text.replace(NOT_XML, ''), max));

/** The branding: the group's colours and eye mark (as client/public/media/brand/logo.svg draws it), its name, the site's host. */
function template(brand: string, host: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
<defs>
<linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#0b4f8a"/><stop offset="1" stop-color="#12878f"/></linearGradient>
<linearGradient id="iris" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#14a3a3"/><stop offset="1" stop-color="#0b4f8a"/></linearGradient>
</defs>
<rect width="${W}" height="${H}" fill="url(#bg)"/>
<circle cx="1080" cy="120" r="260" fill="#ffffff" fill-opacity="0.06"/>
<circle cx="1120" cy="560" r="180" fill="#ffffff" fill-opacity="0.05"/>
<g transform="translate(${MARGIN} 60) scale(1.5)">
<path d="M4 24 C10 14.5 16.5 10 24 10 C31.5 10 38 14.5 44 24 C38 33.5 31.5 38 24 38 C16.5 38 10 33.5 4 24 Z" fill="#ffffff" stroke="#0b4f8a" stroke-width="3" stroke-linejoin="round"/>
<circle cx="24" cy="24" r="9.5" fill="url(#iris)"/><circle cx="24" cy="24" r="4" fill="#08365f"/><circle cx="27.2" cy="20.8" r="2" fill="#ffffff"/>
<path d="M12 8.5 C19 4 29 4 36 8.5" fill="none" stroke="#7fe0e0" stroke-width="2.5" stroke-linecap="round"/>
</g>
<text x="168" y="108" font-family="${FONT}" font-size="36" font-weight="700" fill="#ffffff">${line(brand, BRAND_MAX)}</text>
<rect x="${MARGIN}" y="520" width="72" height="6" rx="3" fill="#7fe0e0"/>
<text x="${MARGIN}" y="574" font-family="${FONT}" font-size="26" fill="#d8f1f1">${line(host, 60)}</text>
</svg>`;
}

/** The title and its line as Pango markup. */
function titleMarkup(text: CardText): string {
  const title = `<span font_desc="${FONT} Bold 60" foreground="#ffffff">${line(text.title, TITLE_MAX)}</span>`;
  return text.subtitle ? `${title}\n<span font_desc="${FONT} 30" foreground="#d8f1f1">${line(text.subtitle, SUBTITLE_MAX)}</span>` : title;
}

async function draw(text: CardText, host: string): Promise<Buffer> {
  const markup = titleMarkup(text);
  const set = (fit: boolean) =>
    sharp({
      text: {
        text: markup,
        width: TEXT_WIDTH,
        ...(fit ? { height: TEXT_HEIGHT } : { dpi: 72 }),
        wrap: 'word-char',
        rgba: true,
        spacing: 14,
      },
    })
      .png()
      .toBuffer({ resolveWithObject: true });
  let block = await set(false);
  // More than three lines: Pango picks the size at which the whole text fits the box.
  if (block.info.height > TEXT_HEIGHT) block = await set(true);
  return sharp(Buffer.from(template(text.brand, host)))
    .composite([{ input: block.data, left: MARGIN, top: TEXT_TOP + Math.max(0, Math.round((TEXT_HEIGHT - block.info.height) / 2)) }])
    .png({ compressionLevel: 9 })
    .toBuffer();
}

export interface DrawnCard {
  png: Buffer;
  /** Names the card's text and template: its ETag. */
  key: string;
  /** Drawn for this request (false: from memory, or drawn for another request at the same time). */
  drawn: boolean;
}

export class ShareCards {
  readonly #cards: LRUCache<string, Buffer>;
  readonly #drawing = new Map<string, Promise<Buffer>>();

  /** `host` is printed on every card (the site's address); at most `maxBytes` of cards are kept. */
  constructor(
    private readonly host: () => string,
    maxBytes: number,
    private readonly onDrawn: (key: string, ms: number) => void,
  ) {
    this.#cards = new LRUCache({ maxSize: maxBytes, sizeCalculation: (png) => png.length });
  }

  /** Bytes held; and near the memory limit, the least recently used cards let go until at most `bytes` are. */
  readonly memoryHeld = () => this.#cards.calculatedSize;
  readonly shrinkTo = (bytes: number) => shrinkLru(this.#cards, bytes);

  /** What names a card: its text, the host it prints and the template. */
  keyOf(text: CardText): string {
    return createHash('sha256')
      .update(JSON.stringify([TEMPLATE_VERSION, this.host(), text.brand, text.title, text.subtitle ?? null]))
      .digest('base64url');
  }

  /** Whether the card for this text is in memory or being drawn: asking for it draws nothing. */
  held(text: CardText): boolean {
    const key = this.keyOf(text);
    return this.#cards.has(key) || this.#drawing.has(key);
  }

  /** The card for this text: from memory, or drawn now (once, however many ask at the same time). */
  async card(text: CardText): Promise<DrawnCard> {
    const key = this.keyOf(text);
    const kept = this.#cards.get(key);
    if (kept) return { png: kept, key, drawn: false };
    const under = this.#drawing.get(key);
    if (under) return { png: await under, key, drawn: false };
    const started = performance.now();
    const drawing = draw(text, this.host());
    this.#drawing.set(key, drawing);
    try {
      const png = await drawing;
      this.#cards.set(key, png);
      this.onDrawn(key, performance.now() - started);
      return { png, key, drawn: true };
    } finally {
      this.#drawing.delete(key);
    }
  }
}
