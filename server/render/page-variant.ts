/**
 * The variant of a page a request gets, decided on the server before a byte of the body is sent,
 * so that the first paint is already right (docs/decisions/004 and 017):
 * - `zoom` or `transform`: the scaling mode, from the browser named by the User-Agent (Edge,
 *   Opera, and Firefox with the other Gecko browsers get a transform; everything else zoom);
 * - `large`: the visitor chose the large-text mode (长者模式), remembered in a cookie; the page is
 *   not scaled down and its type is larger, whatever the browser.
 * An edge in front that is trusted (TRUSTED_PROXIES) decides it itself and says so in a header;
 * the page is then keyed and varied on that header, never on the raw User-Agent.
 */
import type { IncomingMessage } from 'node:http';
import { UAParser } from 'ua-parser-js';
import { PAGE_VARIANT_HEADER, TEXT_SIZE_COOKIE } from '../../shared/constants.js';
import { clientMemo } from '../http/client-memo.js';
import type { TrustedProxies } from '../http/trusted-proxies.js';

type ScaleMode = 'zoom' | 'transform';
export type PageVariant = ScaleMode | 'large';

const VARIANTS: ReadonlySet<string> = new Set<PageVariant>(['zoom', 'transform', 'large']);
const TRANSFORM_BROWSERS = /\b(edge|opera|firefox)\b/i;
const TRANSFORM_ENGINES = /^(gecko|goanna)$/i;
const MAX_UA_LENGTH = 512;
const LARGE_TEXT = new RegExp(`(?:^|;\\s*)${TEXT_SIZE_COOKIE}=large(?:;|$)`);
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
  return typeof said === 'string' && VARIANTS.has(said) && trusted.trusts(req.socket.remoteAddress) ? (said as PageVariant) : undefined;
}

export function variantOf(req: IncomingMessage, trusted: TrustedProxies): PageVariant {
  const edge = fromEdge(req, trusted);
  if (edge) return edge;
  const cookie = req.headers.cookie;
  if (cookie && LARGE_TEXT.test(cookie)) return 'large';
  return scaleModeFor(req.headers['user-agent']);
}

/**
 * The Vary of a page for this request: the variant header when a trusted edge chose the
 * variant, else what the service chose it from (the User-Agent and the cookie).
 */
export function varyOf(req: IncomingMessage, trusted: TrustedProxies): string {
  return fromEdge(req, trusted) ? `Accept-Encoding, ${PAGE_VARIANT_HEADER}` : 'Accept-Encoding, User-Agent, Cookie';
}
