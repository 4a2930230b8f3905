/**
 * Upstream HTML is untrusted. Every field named `content` (the contract's HTML fields) is
 * sanitised once, when an answer enters the cache, so that the API, the pages and the
 * hydration data all carry the same clean HTML.
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
    img: ['src', 'alt', 'width', 'height', 'loading', 'decoding'],
  },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  // Images are the site's own files; no remote or data: images.
  allowedSchemesByTag: { img: [] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: /^https?:/i.test(attribs.href ?? '') ? { ...attribs, rel: 'noopener noreferrer' } : attribs,
    }),
    img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, loading: 'lazy', decoding: 'async' } }),
  },
};

function sanitizeHtmlFragment(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}

/** A copy of a validated payload with every `content` string sanitised. */
export function sanitizeContentFields<T>(value: T): T {
  if (Array.isArray(value)) return value.map(sanitizeContentFields) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    out[key] = key === 'content' && typeof field === 'string' ? sanitizeHtmlFragment(field) : sanitizeContentFields(field);
  }
  return out as T;
}
