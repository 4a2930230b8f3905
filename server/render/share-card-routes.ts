/**
 * `GET /share-card/<route>[/<id>].png`: a page's share card (its og:image). Only the site's own
 * pages have one: the route must be one of the route table's, and an item's id one the content
 * API knows, read through the cache as the page reads it (so a card for an unknown id costs what
 * a 404 page costs). A read that calls the content API spends the client's budget, once per
 * card, as a page render does, and so does drawing a card not in memory (a tenth of a second of
 * work that the cards' bounded memory may have let go: docs/decisions/032); a card is drawn once
 * however many ask at the same time, and not while the process sheds load.
 */
import type { Express, Request, Response } from 'express';
import { isContentError, type ContentError } from '../../shared/content-api.js';
import type { Config } from '../settings/config.js';
import { problem, sendProblem } from '../http/problem.js';
import { isFresh, weakEtag } from '../http/representation.js';
import type { Logger } from '../observability/logger.js';
import { observe } from '../observability/request-observer.js';
import { urlTag } from '../proxy/cache-tags.js';
import { ALL_TAG } from '../fleet/purge-message.js';
import { cacheControl } from '../proxy/cached-answer.js';
import type { ContentCache } from '../proxy/content-cache.js';
import type { Admission } from '../reliability/admission.js';
import type { Spent } from '../reliability/miss-limiter.js';
import { RenderReads } from './render-tracking.js';
import { serverContentApi } from './server-content-api.js';
import { parseCardPath, SHARE_CARD_PATH, shareCardPath } from '../seo/share-card-address.js';
import { cardText } from '../seo/share-card-text.js';
import type { ShareCards } from '../seo/share-card.js';

export interface ShareCardDeps {
  cache: ContentCache;
  cards: ShareCards;
  overloaded: () => ContentError | undefined;
  admission: Pick<Admission, 'admitCall'>;
  windows: Pick<Config, 'CACHE_STALE_WHILE_REVALIDATE_S' | 'CACHE_STALE_IF_ERROR_S'>;
  log: Logger;
}

export function shareCardRoutes(deps: ShareCardDeps) {
  return (app: Express) => {
    app.get(`${SHARE_CARD_PATH}/{*card}`, async (req: Request, res: Response) => {
      observe(res, { route: 'share-card' });
      const refuse = (error: ContentError) => sendProblem(res, error);
      if (req.originalUrl.includes('?')) return refuse(problem('bad_request', 'a share card takes no query'));
      const card = parseCardPath(req.path);
      if ('status' in card) return refuse(problem(card.status === 404 ? 'not_found' : 'bad_request', card.message));

      const busy = deps.overloaded();
      if (busy) return refuse(busy);
      const reads = new RenderReads();
      // The client's budget is spent once, at the first read that calls the content API.
      let admitted: Promise<Spent> | undefined;
      const admit = async () => {
        admitted ??= deps.admission.admitCall(req, 'page');
        const { refusal } = await admitted;
        if (refusal) throw refusal;
      };
      try {
        const text = await cardText(card, serverContentApi(deps.cache, reads, admit));
        const path = shareCardPath(card);
        const etag = weakEtag(deps.cards.keyOf(text));
        const sharedMaxAge = Math.max(0, Math.floor((reads.reuseUntil - Date.now()) / 1000));
        const headers = {
          'content-type': 'image/png',
          'cache-control': cacheControl(200, sharedMaxAge, deps.windows),
          'cache-tag': [...new Set([ALL_TAG, urlTag(path), ...reads.tags])].join(', '),
          etag,
        };
        if (isFresh(req, { etag })) {
          res.status(304).set(headers).end();
          return;
        }
        // Drawing costs as a call does: the client's budget pays for it (once, with any read's call).
        if (!deps.cards.held(text)) await admit();
        const drawn = await deps.cards.card(text);
        observe(res, { cache: drawn.drawn ? 'MISS' : 'HIT' });
        res
          .status(200)
          .set({ ...headers, 'x-cache': drawn.drawn ? 'MISS' : 'HIT', 'content-length': String(drawn.png.length) })
          .end(req.method === 'HEAD' ? undefined : drawn.png);
      } catch (error) {
        if (isContentError(error)) {
          // A 404 from the content API: no such item, so no such card.
          return refuse(error.status === 404 ? problem('not_found', `no ${card.route} ${card.id ?? ''}`.trim()) : error);
        }
        deps.log.error({ err: error, url: req.originalUrl }, 'share card could not be drawn');
        refuse(problem('internal', 'the share card could not be drawn'));
      }
    });
  };
}
