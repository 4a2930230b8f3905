/**
 * How a request refused as the client's fault is answered (docs/decisions/057): with its 4xx, in
 * the shape its reader takes. The API, and any client that prefers JSON, gets the JSON problem; a
 * browser asking for a document gets the site's not-found page for a 404, the bad-address page for
 * a 400, and a plain refusal page for anything else (a 403).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import Negotiator from 'negotiator';
import type { ContentError } from '../../shared/content-api.js';
import { baseHeaders } from '../http/base-headers.js';
import { sendProblem } from '../http/problem.js';
import { BAD_ADDRESS_HTML, REFUSED_HTML } from './plain-pages.js';

/** A request refused as the client's fault, answered; `extra` are pairs the refusal names (Content-Range). */
export type Refusal = (req: IncomingMessage, res: ServerResponse, error: ContentError, extra?: readonly string[]) => void;

/** What a static file's handler may have set before it refused: none of it describes the refusal. */
const REPRESENTATION_HEADERS = [
  'accept-ranges',
  'cache-control',
  'content-disposition',
  'content-encoding',
  'content-language',
  'content-length',
  'content-range',
  'content-type',
  'etag',
  'last-modified',
];

/** A browser's address bar: GET or HEAD outside the API, HTML preferred to JSON. */
function wantsDocument(req: IncomingMessage): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (/^\/api(?:[/?]|$)/.test(req.url ?? '/')) return false;
  return new Negotiator(req).mediaType(['application/json', 'text/html']) === 'text/html';
}

/** `notFoundPage` draws the site's not-found page (the page handler, for an address that is no route). */
export function createRefusal(notFoundPage: (req: IncomingMessage, res: ServerResponse) => unknown): Refusal {
  return (req, res, error, extra = []) => {
    for (const name of REPRESENTATION_HEADERS) res.removeHeader(name);
    if (!wantsDocument(req)) return sendProblem(res, error, extra);
    if (error.status === 404) return void notFoundPage(req, res);
    const html = error.status === 400 ? BAD_ADDRESS_HTML : REFUSED_HTML;
    res.writeHead(error.status, [
      ...baseHeaders(res),
      ...extra,
      'content-type',
      'text/html; charset=utf-8',
      'content-length',
      String(Buffer.byteLength(html)),
      'cache-control',
      'no-store',
    ]);
    res.end(req.method === 'HEAD' ? undefined : html);
  };
}
