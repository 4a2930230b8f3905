/**
 * Every request enters here. The front door gives it its id and its log record, refuses a
 * target longer than MAX_URL_BYTES (414) before anything parses it, waits for its client's turn
 * (fair-turns.ts), turns the target into a path, refuses a path with a dot segment (400) whatever
 * it is under, and hands the rest to the first layer that answers:
 * the API reference page, the proxy API, the page cache, then Express. The headers every answer
 * carries (security headers, the request id) are decided here once, by layer (the API's JSON is
 * read across origins, pages are not), and every layer takes them from base-headers.ts.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ContentError } from '../../shared/content-api.js';
import type { RequestObserver } from '../observability/request-observer.js';
import { API_DOCS_PATH } from './api-docs-paths.js';
import { applyBaseHeaders, useHeaderSet } from './base-headers.js';
import type { FairTurns } from './fair-turns.js';
import { problem, sendProblem } from './problem.js';
import type { HeaderSet } from './security-headers.js';

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

/** The security headers of each kind of answer (server/http/security-headers.ts). */
export interface HeaderSets {
  /** Pages, and everything Express answers. */
  pages: HeaderSet;
  /** The proxy API (JSON, readable from any origin). */
  api: HeaderSet;
  /** The API reference page, with its own CSP. */
  apiDocs: HeaderSet;
}

export interface Layers {
  /** The API reference page, /api/docs (none on the operators' listener). */
  apiDocs?: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  /** The proxy API: everything else under /api (none on the operators' listener). */
  api?: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  /** The media endpoint: everything under /_media (server/media). */
  media?: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  /** Answers from the page cache; false when the page is not there. */
  cachedPage?: ((req: IncomingMessage, res: ServerResponse) => boolean) | undefined;
  /** Express: health, metrics, static files, pages. */
  app: (req: IncomingMessage, res: ServerResponse) => void;
  /** Answers a request refused here in the shape its reader takes (render/refusal.ts); a JSON problem without it. */
  refuse?: ((req: IncomingMessage, res: ServerResponse, error: ContentError) => void) | undefined;
}

const pairsOf = (headers: HeaderSet) => Object.freeze(Object.entries(headers).flat());

/** The request's path without its query. */
const pathOf = (url: string) => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/**
 * A dot segment (`.` or `..`, RFC 3986 section 3.3), its dots and separators percent-encoded or
 * not, with `\` read as a separator as Windows reads it. No address of the site has one and
 * browsers resolve them before they send an address: only a client reaching for a file outside a
 * folder sends one, and no layer (the static folders least of all) is left to make sense of it.
 */
const DOT_SEGMENT = /(?:^|[/\\]|%2f|%5c)(?:\.|%2e){1,2}(?=$|[/\\]|%2f|%5c)/i;

/** What the public listener's front door holds every request to (docs/decisions/032). */
export interface DoorLimits {
  /**
   * The longest request target taken (MAX_URL_BYTES): past it the answer is 414 at once, as
   * nginx's large_client_header_buffers answers, so that no parser, router or memo ever sees a
   * longer one (the request line logs its first 512 bytes). node:http delivers the target as one
   * byte per character.
   */
  maxUrlBytes: number;
  /** Each client's share of a turn of the event loop. */
  turns: FairTurns;
}

export function createFrontDoor(
  security: HeaderSets,
  observeRequest: RequestObserver,
  layers: Layers,
  limits?: DoorLimits,
): RequestListener {
  const pagePairs = pairsOf(security.pages);
  const apiPairs = pairsOf(security.api);
  const apiDocsPairs = pairsOf(security.apiDocs);

  function dispatch(req: IncomingMessage, res: ServerResponse): void {
    // A client that left while its request waited for its turn is answered no more.
    if (req.socket.destroyed) return;
    const url = originForm(req.url ?? '/');
    if (url === undefined) {
      sendProblem(res, problem('bad_request', 'the request target must be a path'));
      return;
    }
    req.url = url;
    if (DOT_SEGMENT.test(pathOf(url))) {
      const refused = problem('bad_request', 'the path has a dot segment (. or ..), which no address of this site has');
      if (layers.refuse) layers.refuse(req, res, refused);
      else sendProblem(res, refused);
      return;
    }
    if (layers.api && layers.apiDocs && (url.startsWith('/api/') || url === '/api')) {
      if (pathOf(url) === API_DOCS_PATH) {
        useHeaderSet(res, apiDocsPairs);
        return layers.apiDocs(req, res);
      }
      useHeaderSet(res, apiPairs);
      return layers.api(req, res);
    }
    if (layers.media && /^\/_media(?:[/?]|$)/.test(url)) {
      // Content images and files are read from any origin, like the API's answers (decision 024).
      useHeaderSet(res, apiPairs);
      return layers.media(req, res);
    }
    if (layers.cachedPage?.(req, res)) return;
    applyBaseHeaders(res);
    layers.app(req, res);
  }

  return (req, res) => {
    observeRequest(req, res);
    useHeaderSet(res, pagePairs);
    if (!limits) return dispatch(req, res);
    if ((req.url ?? '/').length > limits.maxUrlBytes) {
      sendProblem(res, problem('uri_too_long', `the request target is longer than ${limits.maxUrlBytes} bytes`));
      return;
    }
    limits.turns.take(req, () => dispatch(req, res));
  };
}
