/** The document up to <body>, written before React's stream: title, meta, styles, preloads. */
import { APP_MODULES_META } from '../../client/head-script.js';
import { escapeHtml } from '../../shared/escape-json.js';
import type { PageAssets } from './client-assets.js';
import type { ScaleMode } from './scale-mode.js';

export interface HeadOptions {
  title: string;
  description: string;
  canonical: string;
  scaleMode: ScaleMode;
  headScript: string;
  assets: PageAssets;
  indexable: boolean;
}

export function documentHead(o: HeadOptions): string {
  const attr = escapeHtml;
  return [
    `<!doctype html><html lang="zh-CN" data-scale="${o.scaleMode}"><head>`,
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(o.title)}</title>`,
    `<meta name="description" content="${attr(o.description)}">`,
    o.indexable ? `<link rel="canonical" href="${attr(o.canonical)}">` : '<meta name="robots" content="noindex">',
    '<meta name="theme-color" content="#0b4f8a">',
    '<link rel="icon" href="/media/brand/logo.svg" type="image/svg+xml">',
    o.assets.css ? `<style>${o.assets.css}</style>` : '',
    // The app's modules: the entry, then the route's chunks; the head script loads them.
    `<meta name="${APP_MODULES_META}" content="${attr([o.assets.entry, ...o.assets.preloads].join(' '))}">`,
    `<script>${o.headScript}</script>`,
    '</head><body>',
  ].join('');
}

/** The parameters that name a page's content; anything else is left out of canonical links. */
const CANONICAL_PARAMS = ['id', 'sub', 'title', 'page'];

export function canonicalUrl(origin: string, url: URL): string {
  const query = new URLSearchParams();
  for (const key of CANONICAL_PARAMS) {
    const value = url.searchParams.get(key);
    if (value) query.set(key, value);
  }
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : '/';
  const s = query.toString();
  return `${origin}${path}${s ? `?${s}` : ''}`;
}
