/**
 * What a page render passes before it starts (docs/decisions/020, 022 and 032): an address that
 * is no route gets the kept not-found page; a process too busy refuses a render (503), and so
 * does a client refused a render's charge within its window (429); then it waits its turn in
 * its client's lane (reliability/render-lanes.ts) and holds it until its answer is sent. A
 * refusal is a small plain page, never a render, so that refusing costs almost nothing.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isContentError, type ContentError } from '../../shared/content-api.js';
import { rateLimitHeaders } from '../reliability/rate-limit-headers.js';
import { observe } from '../observability/request-observer.js';
import type { Admission } from '../reliability/admission.js';
import type { RenderLanes } from '../reliability/render-lanes.js';
import type { PageCache } from './page-cache.js';
import { BUSY_HTML, TOO_MANY_HTML } from './plain-pages.js';

/** The page of a render refused before or while it runs, whenever that is found: 503 (busy) or 429. */
export function sendRefused(req: IncomingMessage, res: ServerResponse, status: 503 | 429, retryAfterS = 1, rateLimit: string[] = []): void {
  observe(res, { cache: 'REFUSED' });
  const headers = ['content-type', 'text/html; charset=utf-8', 'cache-control', 'no-store', 'retry-after', String(retryAfterS)];
  res.writeHead(status, [...headers, ...rateLimit]).end(req.method === 'HEAD' ? undefined : status === 503 ? BUSY_HTML : TOO_MANY_HTML);
}

/** Resolves when the answer is sent or the client has gone. */
const answered = (res: ServerResponse) => new Promise<void>((resolve) => (res.closed ? resolve() : res.once('close', resolve)));

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

interface AdmissionDeps {
  admission: Pick<Admission, 'refuseRender' | 'budgetOf'>;
  lanes: RenderLanes;
  /** The kept not-found page, for a request that names no route (none when pages are not kept). */
  pageCache: Pick<PageCache, 'serveNotFound'> | undefined;
}

/** `render`, behind the kept not-found page, the refusals, and in its client's lane. */
export function admittedRenders(deps: AdmissionDeps, render: Handler): Handler {
  const refuse = (req: IncomingMessage, res: ServerResponse, refusal: ContentError) => {
    if (refusal.status !== 429) return sendRefused(req, res, 503, refusal.retryAfterS);
    const budget = deps.admission.budgetOf(undefined, refusal.retryAfterS ?? 1);
    sendRefused(req, res, 429, refusal.retryAfterS, rateLimitHeaders(budget));
  };

  return async function handlePage(req, res) {
    // The route is known once the router has matched; until then a page is a page.
    observe(res, { route: 'page' });
    // Every address that is no route (what scanners ask for all day) gets the one kept page, like any cached page.
    if (deps.pageCache?.serveNotFound(req, res)) return;
    // Cached pages were served ahead of this: only a render is refused.
    const refusal = deps.admission.refuseRender(req);
    if (refusal) return refuse(req, res, refusal);
    let turn = false;
    try {
      await deps.lanes.run(req, async () => {
        turn = true;
        // A client that left while it waited for its turn needs no render; one refused meanwhile
        // (its budget spent by the renders ahead of this one) gets the refusal at once.
        if (res.closed) return;
        const late = deps.admission.refuseRender(req);
        if (late) return refuse(req, res, late);
        await Promise.all([render(req, res), answered(res)]);
      });
    } catch (error) {
      // No turn in its client's lane in time; anything else is the render's own failure (Express answers it).
      if (!turn && isContentError(error)) refuse(req, res, error);
      else throw error;
    }
  };
}
