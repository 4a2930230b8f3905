/**
 * Security headers, decided once by helmet at start and then copied onto every answer, so that
 * the API handler (ahead of Express) and Express send the same set. The CSP allows scripts from
 * this origin and the hashes of our own inline scripts only, so a cached page stays valid.
 * The proxy API's JSON and the API reference page get sets of their own, derived from the
 * pages' (docs/decisions/024).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { contentSecurityPolicy } from 'helmet';
import { CORS_HEADERS } from './cors.js';

export type HeaderSet = Readonly<Record<string, string>>;

/**
 * Headers that only mean something for a document (a page, or an SVG opened on its own): a
 * script or stylesheet loaded by a page is governed by the page's. Fingerprinted assets go
 * without them, which saves about 0.7 KB on each.
 */
export const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
] as const;

export function securityHeaders(inlineScriptHashes: readonly string[], options = { csp: true }): HeaderSet {
  const middleware = helmet({
    contentSecurityPolicy: options.csp && {
      useDefaults: true,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'", ...inlineScriptHashes.map((h) => `'${h}'`)],
        // React writes a few style attributes (panel heights); styles cannot run code.
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'font-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        // Behind TLS the proxy in front upgrades; on plain loopback this would break the site.
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginEmbedderPolicy: false,
    // The same as the CSP's frame-ancestors 'none', for browsers that only know this header.
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  return headersOf(middleware);
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** The headers a helmet middleware sets, collected once. */
function headersOf(middleware: Middleware): HeaderSet {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  middleware({} as IncomingMessage, res as unknown as ServerResponse, () => {});
  return Object.freeze(headers);
}

/**
 * The proxy API's JSON, read from any origin: the pages' set without what only a document
 * heeds (a JSON answer runs nothing, frames nothing and loads nothing, so it has no use for a
 * CSP or a referrer policy), with Cross-Origin-Resource-Policy: cross-origin and CORS.
 * HSTS and nosniff stay: they mean as much for JSON as for anything.
 */
export function apiHeaders(pages: HeaderSet): HeaderSet {
  const headers: Record<string, string> = { ...pages };
  for (const name of [...DOCUMENT_ONLY_HEADERS, 'referrer-policy']) delete headers[name];
  return Object.freeze({ ...headers, 'cross-origin-resource-policy': 'cross-origin', ...CORS_HEADERS });
}

/**
 * The API reference page (/api/docs): the pages' set with a CSP of its own, which allows the
 * reference's script from this origin, the styles it writes, and requests to this origin and
 * the document's server (`connectTo`, for its request panel); nothing else, and no inline script.
 */
export function apiDocsHeaders(pages: HeaderSet, connectTo: readonly string[]): HeaderSet {
  const csp = headersOf(
    contentSecurityPolicy({
      useDefaults: false,
      directives: {
        'default-src': ["'none'"],
        'script-src': ["'self'"],
        // The reference writes its stylesheet into the page and sets style attributes.
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'font-src': ["'self'"],
        'connect-src': ["'self'", ...connectTo],
        'base-uri': ["'none'"],
        'form-action': ["'none'"],
        'frame-ancestors': ["'none'"],
      },
    }),
  );
  return Object.freeze({ ...pages, ...csp });
}
