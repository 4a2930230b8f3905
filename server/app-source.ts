/**
 * The one seam between development and production: where the app (client/) comes from. Built:
 * the render module imported once and dist/client served as precompressed files. Development:
 * Vite serves the sources with hot reload and the render module is loaded afresh per request,
 * Vite's inline scripts are allowed (no CSP) and nothing is kept in the page cache.
 */
import { join } from 'node:path';
import type { Express, NextFunction, Request, Response } from 'express';
import expressStaticGzip from 'express-static-gzip';
import type { AppRenderer } from '../client/entry-server.js';
import { problem } from './http/problem.js';
import { DOCUMENT_ONLY_HEADERS } from './http/security-headers.js';
import { observe } from './observability/request-observer.js';
import { apiReferenceScriptUrl } from './api-docs/api-docs-page.js';
import { API_REFERENCE_SOURCE } from './http/api-docs-paths.js';
import { readClientAssets, sourceClientAssets, type ClientAssets } from './render/client-assets.js';

export interface AppSource {
  readonly development: boolean;
  readonly assets: ClientAssets;
  /** The API reference page's script (server/api-docs/api-docs-page.ts). */
  readonly apiReferenceScript: string;
  renderer(): Promise<AppRenderer>;
  /** Serves /assets and /media. */
  mountStatic(app: Express): void;
  /** Adds what development needs to a page's head. */
  transformHead?: (url: string, head: string) => Promise<string>;
  close(): Promise<void>;
}

const YEAR_MS = 365 * 24 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;

const noteStatic = (_req: Request, res: Response, next: NextFunction) => {
  observe(res, { route: 'static' });
  // On a 304 too (RFC 9110 section 15.4.5): express-static-gzip sets it only on a 200.
  res.setHeader('vary', 'Accept-Encoding');
  next();
};

/** A path that cannot be decoded is the client's fault, refused before express-static-gzip answers it in a shape of its own. */
const decodable = (req: Request, _res: Response, next: NextFunction) => {
  try {
    decodeURIComponent(req.path);
  } catch {
    next(problem('bad_request', 'the URL cannot be decoded'));
    return;
  }
  next();
};

/** Scripts and stylesheets: no document-only headers. */
const scriptOrStyle = (req: Request, res: Response, next: NextFunction) => {
  if (/\.(js|css)$/.test(req.path)) for (const name of DOCUMENT_ONLY_HEADERS) res.removeHeader(name);
  next();
};

/**
 * The app as built: `clientDir` is dist/client (its manifest names each page's files). Without
 * one (tests that run before a build), pages name the sources and carry no stylesheet.
 */
export function builtApp(clientDir?: string): AppSource {
  let renderer: AppRenderer | undefined;
  return {
    development: false,
    assets: clientDir ? readClientAssets(clientDir) : sourceClientAssets,
    apiReferenceScript: apiReferenceScriptUrl(clientDir),
    async renderer() {
      renderer ??= (await import('../client/entry-server.js')).createAppRenderer();
      return renderer;
    },
    mountStatic(app) {
      if (!clientDir) return;
      const precompressed = (dir: string, maxAge: number, immutable: boolean) =>
        expressStaticGzip(join(clientDir, dir), {
          enableBrotli: true,
          orderPreference: ['br', 'gzip'],
          index: false,
          // A fingerprinted file never changes under its name and `immutable` keeps browsers from
          // asking again: no validators to send with it (nor ranges: scripts and stylesheets).
          serveStatic: {
            maxAge,
            immutable,
            etag: !immutable,
            lastModified: !immutable,
            acceptRanges: !immutable,
            index: false,
            fallthrough: false,
          },
        });
      // Fingerprinted file names: they never change.
      app.use('/assets', noteStatic, decodable, scriptOrStyle, precompressed('assets', YEAR_MS, true));
      app.use('/media', noteStatic, decodable, precompressed('media', DAY_MS, false));
    },
    close: async () => {},
  };
}

/** The app from its sources through Vite (`npm run dev`). */
export async function viteApp(): Promise<AppSource> {
  const { createServer } = await import('vite');
  const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' });
  return {
    development: true,
    assets: sourceClientAssets,
    apiReferenceScript: apiReferenceScriptUrl(),
    async renderer() {
      const entry = (await vite.ssrLoadModule('/client/entry-server.tsx')) as typeof import('../client/entry-server.js');
      return entry.createAppRenderer();
    },
    mountStatic(app) {
      // The API reference's bundle as the package ships it: Vite would rewrite it into a module.
      app.get(`/${API_REFERENCE_SOURCE}`, (_req, res) => res.sendFile(API_REFERENCE_SOURCE, { root: process.cwd() }));
      app.use(vite.middlewares);
    },
    transformHead: (url, head) => vite.transformIndexHtml(url, head),
    close: () => vite.close(),
  };
}
