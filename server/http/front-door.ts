/**
 * Every request enters here. The front door gives it its id and its log record, turns its
 * target into a path, and hands it to the first layer that answers: the proxy API, the page
 * cache, then Express. The headers every answer carries (security headers, the request id) are
 * decided here once, and every layer takes them from here (`baseHeaders`, `applyBaseHeaders`).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { RequestObserver } from '../observability/request-observer.js';
import { requestIdOf } from '../observability/request-observer.js';
import { problem, sendProblem } from './problem.js';
import type { HeaderSet } from './security-headers.js';

const SECURITY = Symbol('security headers');
type Fronted = ServerResponse & { [SECURITY]?: readonly string[] };

/** The headers every answer carries, as flat name/value pairs for one writeHead. */
export function baseHeaders(res: ServerResponse): string[] {
  return [...((res as Fronted)[SECURITY] ?? []), 'x-request-id', requestIdOf(res)];
}

/** The same headers set one by one, for layers that write their own (Express). */
function applyBaseHeaders(res: ServerResponse): void {
  const pairs = baseHeaders(res);
  for (let i = 0; i < pairs.length; i += 2) res.setHeader(pairs[i]!, pairs[i + 1]!);
}

/**
 * The request target as a path. An absolute-form target (RFC 9112 section 3.2.2) is served by
 * its path; its host is ignored, like the Host header. Undefined for anything else (`*`).
 */
function originForm(target: string): string | undefined {
  if (target.startsWith('/')) return target;
  if (!/^https?:\/\//i.test(target)) return undefined;
  try {
    const url = new URL(target);
    return url.pathname + url.search;
  } catch {
    return undefined;
  }
}

export interface Layers {
  /** The proxy API: everything under /api. */
  api: (req: IncomingMessage, res: ServerResponse) => void;
  /** The media endpoint: everything under /_media (server/media). */
  media?: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  /** Answers from the page cache; false when the page is not there. */
  cachedPage?: ((req: IncomingMessage, res: ServerResponse) => boolean) | undefined;
  /** Express: health, metrics, static files, pages. */
  app: (req: IncomingMessage, res: ServerResponse) => void;
}

export function createFrontDoor(security: HeaderSet, observeRequest: RequestObserver, layers: Layers): RequestListener {
  const securityPairs = Object.freeze(Object.entries(security).flat());
  return (req, res) => {
    observeRequest(req, res);
    (res as Fronted)[SECURITY] = securityPairs;
    const url = originForm(req.url ?? '/');
    if (url === undefined) {
      sendProblem(res, problem('bad_request', 'the request target must be a path'));
      return;
    }
    req.url = url;
    if (url.startsWith('/api/') || url === '/api') return layers.api(req, res);
    if (layers.media && /^\/_media(?:[/?]|$)/.test(url)) return layers.media(req, res);
    if (layers.cachedPage?.(req, res)) return;
    applyBaseHeaders(res);
    layers.app(req, res);
  };
}
