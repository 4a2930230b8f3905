/**
 * Upstream HTML is untrusted. Every HTML field of the contract is sanitised once, when an answer
 * enters the cache (content-reader.ts), so that the API, the pages and the hydration data all
 * carry the same clean HTML. An image in it is shown from this site's media endpoint, like every
 * content image: its source is rewritten by the reader, or the image is left out.
 */
import sanitizeHtml from 'sanitize-html';

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'h2',
    'h3',
    'h4',
    'ul',
    'ol',
    'li',
    'strong',
    'em',
    'b',
    'i',
    'u',
    'blockquote',
    'a',
    'img',
    'figure',
    'figcaption',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'span',
  ],
  // rel, loading and decoding are only ever set by transformTags below.
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    img: ['src', 'srcset', 'sizes', 'alt', 'width', 'height', 'loading', 'decoding'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  // Images are the media endpoint's (rewritten below); no remote or data: images.
  allowedSchemesByTag: { img: [] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: /^https?:/i.test(attribs.href ?? '') ? { ...attribs, rel: 'noopener noreferrer' } : attribs,
    }),
  },
  // An image whose source could not be made one of the media endpoint's.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

/** An inline image's source as the media endpoint serves it (`src` and `srcset`), or undefined when it may not be shown. */
export type InlineImage = (src: string) => { src: string; srcset: string } | undefined;

/** An HTML field of the contract, with what may not be shown removed and its images on the media endpoint. */
export function sanitizeHtmlFragment(html: string, inlineImage: InlineImage): string {
  return sanitizeHtml(html, {
    ...OPTIONS,
    transformTags: {
      ...OPTIONS.transformTags,
      img: (tagName, { src, srcset: _theirs, sizes: _sizes, ...attribs }) => {
        const image = src ? inlineImage(src) : undefined;
        return { tagName, attribs: image ? { ...attribs, ...image, sizes: INLINE_SIZES, loading: 'lazy', decoding: 'async' } : {} };
      },
    },
  });
}

/** An article's column: the whole width on a phone, about half of a wide screen. */
const INLINE_SIZES = '(max-width: 500px) calc(100vw - 68px), 50vw';
