/**
 * The variant of a page a request gets, decided on the server before a byte of the body is sent,
 * so that the first paint is already right (docs/decisions/004, 017 and 066). Three choices, each
 * from a closed set:
 * - the layout: `zoom` or `transform`, the scaling mode, from the browser named by the User-Agent
 *   (Edge, Opera, and Firefox with the other Gecko browsers get a transform; everything else
 *   zoom); or `large`, the large-text mode (长者模式) the visitor chose, remembered in a cookie:
 *   the page is not scaled down and its type is larger, whatever the browser;
 * - the theme (辅助浏览 › 高对比度): `auto` (the system's contrast preference decides, in the
 *   browser), or the visitor's choice, `contrast` or `plain`, remembered in a cookie;
 * - the cursor (大鼠标): large or not, remembered in a cookie.
 * A variant is named by its choices joined with `+` (`zoom`, `large+contrast`,
 * `transform+plain+cursor`): 18 names in all, the page cache's key and the edge's word for it.
 * An edge in front that is trusted (TRUSTED_PROXIES) decides it itself and says so in a header;
 * the page is then keyed and varied on that header, never on the raw User-Agent.
 */
import type { IncomingMessage } from 'node:http';
import { UAParser } from 'ua-parser-js';
import { CURSOR_COOKIE, PAGE_VARIANT_HEADER, TEXT_SIZE_COOKIE, THEME_COOKIE } from '../../shared/constants.js';
import { clientMemo } from '../http/client-memo.js';
import type { TrustedProxies } from '../http/trusted-proxies.js';

type ScaleMode = 'zoom' | 'transform';
export type PageLayout = ScaleMode | 'large';
type PageTheme = 'auto' | 'contrast' | 'plain';

export interface PageVariant {
  readonly layout: PageLayout;
  readonly theme: PageTheme;
  readonly largeCursor: boolean;
  /** Its name: the page cache's key, the ETag's, and what a trusted edge says in X-Page-Variant. */
  readonly name: string;
}

const LAYOUTS: readonly PageLayout[] = ['zoom', 'transform', 'large'];
const THEMES: readonly PageTheme[] = ['auto', 'contrast', 'plain'];

const nameOf = (layout: PageLayout, theme: PageTheme, largeCursor: boolean) =>
  [layout, ...(theme === 'auto' ? [] : [theme]), ...(largeCursor ? ['cursor'] : [])].join('+');

/** Every variant, by name: one shared object each. */
const BY_NAME: ReadonlyMap<string, PageVariant> = new Map(
  LAYOUTS.flatMap((layout) =>
    THEMES.flatMap((theme) =>
      [false, true].map((largeCursor) => {
        const name = nameOf(layout, theme, largeCursor);
        return [name, { layout, theme, largeCursor, name }] as const;
      }),
    ),
  ),
);

const TRANSFORM_BROWSERS = /\b(edge|opera|firefox)\b/i;
const TRANSFORM_ENGINES = /^(gecko|goanna)$/i;
const MAX_UA_LENGTH = 512;
/** A cookie set to one value, as the edge's VCL matches it (deploy/varnish/default.vcl): the same patterns, in the same order. */
const cookieIs = (name: string, value: string) => new RegExp(`(?:^|;\\s*)${name}=${value}(?:;|$)`);
const LARGE_TEXT = cookieIs(TEXT_SIZE_COOKIE, 'large');
const THEME_CONTRAST = cookieIs(THEME_COOKIE, 'contrast');
const THEME_PLAIN = cookieIs(THEME_COOKIE, 'plain');
const LARGE_CURSOR = cookieIs(CURSOR_COOKIE, 'large');
const memo = clientMemo<ScaleMode>();

/** The scaling mode for a User-Agent; each distinct string is parsed once. */
function scaleModeFor(userAgent: string | undefined): ScaleMode {
  if (!userAgent) return 'zoom';
  const ua = userAgent.slice(0, MAX_UA_LENGTH);
  let mode = memo.get(ua);
  if (!mode) {
    const parsed = new UAParser(ua);
    const transform = TRANSFORM_BROWSERS.test(parsed.getBrowser().name ?? '') || TRANSFORM_ENGINES.test(parsed.getEngine().name ?? '');
    mode = transform ? 'transform' : 'zoom';
    memo.set(ua, mode);
  }
  return mode;
}

/** The variant said by a trusted edge, if it said one. */
function fromEdge(req: IncomingMessage, trusted: TrustedProxies): PageVariant | undefined {
  const said = req.headers[PAGE_VARIANT_HEADER];
  if (typeof said !== 'string') return undefined;
  const variant = BY_NAME.get(said);
  return variant && trusted.trusts(req.socket.remoteAddress) ? variant : undefined;
}

/** The variant the visitor's cookies choose, with the scaling mode of their browser. */
function fromCookies(userAgent: string | undefined, cookie = ''): PageVariant {
  const layout = LARGE_TEXT.test(cookie) ? 'large' : scaleModeFor(userAgent);
  const theme = THEME_CONTRAST.test(cookie) ? 'contrast' : THEME_PLAIN.test(cookie) ? 'plain' : 'auto';
  return BY_NAME.get(nameOf(layout, theme, LARGE_CURSOR.test(cookie)))!;
}

export function variantOf(req: IncomingMessage, trusted: TrustedProxies): PageVariant {
  return fromEdge(req, trusted) ?? fromCookies(req.headers['user-agent'], req.headers.cookie);
}

/**
 * The Vary of a page for this request: the variant header when a trusted edge chose the
 * variant, else what the service chose it from (the User-Agent and the cookie).
 */
export function varyOf(req: IncomingMessage, trusted: TrustedProxies): string {
  return fromEdge(req, trusted) ? `Accept-Encoding, ${PAGE_VARIANT_HEADER}` : 'Accept-Encoding, User-Agent, Cookie';
}
