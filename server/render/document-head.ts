/** The document up to <body>, written before React's stream: title, meta, styles, preloads. */
import { APP_MODULES_META } from '../../shared/site/head-script.js';
import { canonicalHref } from '../../shared/site/href.js';
import { escapeHtml } from '../../shared/escape-json.js';
import { FIRST_SCREEN_END_ID } from '../../shared/constants.js';
import { RUM_SAMPLE_META } from '../../shared/rum.js';
import type { PageHead } from '../seo/page-head.js';
import type { PageAssets } from './client-assets.js';
import type { PageVariant } from './page-variant.js';

export interface HeadOptions {
  title: string;
  description: string;
  canonical: string;
  variant: PageVariant;
  headScript: string;
  /** The share of page views measured in the browser (RUM_SAMPLE_RATE); 0 writes nothing. */
  rumSampleRate: number;
  assets: PageAssets;
  indexable: boolean;
  /** A page that answers 200 but that search engines should not keep (search results): its canonical link, and noindex. */
  noindex?: boolean | undefined;
  /** The Open Graph set and the structured data of a page that answers 200 (server/seo/page-head.ts). */
  seo?: Pick<PageHead, 'meta' | 'jsonLd'> | undefined;
}

/**
 * The <html> element's attributes, which the stylesheet draws the variant from before any script
 * runs: the scaling mode (the large-text mode is never scaled down: it takes the window's own
 * width, zoom mode), the large text, the theme the visitor chose (none: the head script follows
 * the system's contrast preference) and the large cursor.
 */
function htmlAttributes({ layout, theme, largeCursor }: PageVariant): string {
  return [
    ` data-scale="${layout === 'transform' ? 'transform' : 'zoom'}"`,
    layout === 'large' ? ' data-text="large"' : '',
    theme === 'auto' ? '' : ` data-theme="${theme}"`,
    largeCursor ? ' data-cursor="large"' : '',
  ].join('');
}

export function documentHead(o: HeadOptions): string {
  const attr = escapeHtml;
  return [
    `<!doctype html><html lang="zh-CN"${htmlAttributes(o.variant)}><head>`,
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(o.title)}</title>`,
    `<meta name="description" content="${attr(o.description)}">`,
    o.indexable ? `<link rel="canonical" href="${attr(o.canonical)}">` : '',
    !o.indexable || o.noindex ? '<meta name="robots" content="noindex">' : '',
    ...(o.seo?.meta ?? []).map((m) => `<meta ${m.attribute}="${attr(m.key)}" content="${attr(m.content)}">`),
    '<meta name="theme-color" content="#0b4f8a">',
    '<link rel="icon" href="/media/brand/logo.svg" type="image/svg+xml">',
    o.assets.css ? `<style>${o.assets.css}</style>` : '',
    // No frame before the first band is parsed whole: a header or banner drawn in halves shifts (decision 042).
    `<link rel="expect" href="#${FIRST_SCREEN_END_ID}" blocking="render">`,
    // The app's modules: the entry, then the route's chunks; the head script loads them.
    `<meta name="${APP_MODULES_META}" content="${attr([o.assets.entry, ...o.assets.preloads].join(' '))}">`,
    `<script>${o.headScript}</script>`,
    o.rumSampleRate > 0 ? `<meta name="${RUM_SAMPLE_META}" content="${o.rumSampleRate}">` : '',
    // Data, not a script: the CSP does not apply to it, and its text cannot close the element.
    o.seo ? `<script type="application/ld+json">${o.seo.jsonLd}</script>` : '',
    '</head><body>',
  ].join('');
}

/** A page's canonical link: its route's own parameters only (shared/site/href.ts); the path as given for a path that is no route. */
export function canonicalUrl(origin: string, url: URL): string {
  return origin + (canonicalHref(url.pathname, url.searchParams) ?? url.pathname);
}
