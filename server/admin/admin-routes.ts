/**
 * The two doors through which content changes reach the caches (docs/product/publishing.md):
 * - `POST /admin/purge` for an editor or operator, with `Authorization: Bearer <PURGE_TOKEN>`
 *   and `{"tags": [...]}`, `{"paths": [...]}` or `{"all": true}`;
 * - `POST /admin/webhook` for the content API's publish events, signed with HMAC-SHA256 over
 *   the timestamp and the raw body (`WEBHOOK_SECRET`), refused when old or when its id was seen before.
 * Each is off (404) without its secret. A refused request changes nothing, and says why. An
 * accepted publish event is then handed on (search engines are told of the pages it changed).
 */
import { timingSafeEqual } from 'node:crypto';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { canonicalHref } from '../../shared/site/href.js';
import type { SharedTier } from '../fleet/shared-tier.js';
import type { Purger } from './purge.js';
import { bearerMatches } from '../http/bearer.js';
import { problem, sendProblem } from '../http/problem.js';
import { observe } from '../observability/request-observer.js';
import { parseApiRequest } from '../proxy/api-request.js';
import { urlTag } from '../proxy/cache-tags.js';
import { ALL_TAG } from '../fleet/purge-message.js';
import {
  publishEvent,
  SIGNATURE_HEADER,
  signWebhook,
  tagsOfEvent,
  TIMESTAMP_HEADER,
  WEBHOOK_WINDOW_S,
  type PublishEvent,
} from './publish-events.js';

/** The largest body either door takes. */
const MAX_BODY = '16kb';

const tag = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\s,]+$/, 'a tag has no spaces or commas');
const purgeRequest = z.union([
  z.object({ tags: z.array(tag).min(1).max(500) }).strict(),
  z.object({ paths: z.array(z.string().min(1).max(2048)).min(1).max(500) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);

export interface AdminDeps {
  purger: Purger;
  purgeToken: string | undefined;
  webhookSecret: string | undefined;
  /** For webhook replays across the service (Redis, or one machine's primary); undefined for a lone process. */
  shared: SharedTier | undefined;
  /** Told of every publish event once it has purged (search engines); must return at once. */
  published?: ((event: PublishEvent) => void) | undefined;
}

/** The `url:` tag of a path: an API path's canonical key, or a page's canonical address. */
function pathTag(path: string): string | { error: string } {
  if (!path.startsWith('/')) return { error: `${path.slice(0, 100)}: a path starts with /` };
  if (path.startsWith('/api/')) {
    const request = parseApiRequest(path);
    return 'key' in request ? urlTag(request.key) : { error: `${path.slice(0, 100)}: ${request.message}` };
  }
  const q = path.indexOf('?');
  const canonical = canonicalHref(q === -1 ? path : path.slice(0, q), new URLSearchParams(q === -1 ? '' : path.slice(q + 1)));
  return canonical === undefined ? { error: `${path.slice(0, 100)}: not a page or API path of this site` } : urlTag(canonical);
}

const firstIssue = (error: z.ZodError) => {
  const issue = error.issues[0]!;
  return `${issue.path.join('.') || 'body'}: ${issue.message}`;
};

export function adminRoutes(deps: AdminDeps) {
  // Publish events seen lately (their ids), refused when they come again.
  const seen = new LRUCache<string, true>({ max: 10_000, ttl: WEBHOOK_WINDOW_S * 2 * 1000 });

  /** The raw body, or a problem answered: 413 when too large. */
  const rawBody = express.raw({ type: () => true, limit: MAX_BODY });
  const readBody = (req: Request, res: Response, next: NextFunction) =>
    rawBody(req, res, (error?: unknown) => {
      if (!error) return next();
      const status = (error as { status?: number }).status;
      sendProblem(
        res,
        status === 413
          ? problem('payload_too_large', `the body is over ${MAX_BODY}`)
          : problem('bad_request', 'the body could not be read'),
      );
    });
  const json = (req: Request): unknown => {
    const body = req.body as unknown;
    if (!Buffer.isBuffer(body) || body.length === 0) return undefined;
    try {
      return JSON.parse(body.toString('utf8'));
    } catch {
      return undefined;
    }
  };
  const off = (_req: Request, res: Response) => sendProblem(res, problem('not_found', 'nothing here'));

  return (app: Express) => {
    app.post('/admin/purge', (req, res, next) => {
      observe(res, { route: 'admin' });
      if (!deps.purgeToken) return off(req, res);
      if (!bearerMatches(req.get('authorization'), deps.purgeToken)) {
        sendProblem(res, problem('unauthorized', 'a bearer token is required'), ['www-authenticate', 'Bearer']);
        return;
      }
      next();
    });
    app.post('/admin/purge', readBody, async (req, res) => {
      const body = json(req);
      if (body === undefined) return sendProblem(res, problem('bad_request', 'the body must be JSON'));
      const parsed = purgeRequest.safeParse(body);
      if (!parsed.success) {
        const keys = typeof body === 'object' && body !== null ? Object.keys(body) : [];
        const message =
          keys.length !== 1 || !['tags', 'paths', 'all'].includes(keys[0]!)
            ? 'the body has exactly one of tags, paths or all'
            : firstIssue(parsed.error);
        return sendProblem(res, problem('bad_request', message));
      }
      let tags: string[];
      if ('all' in parsed.data) tags = [ALL_TAG];
      else if ('tags' in parsed.data) tags = parsed.data.tags;
      else {
        const found = parsed.data.paths.map(pathTag);
        const bad = found.find((t) => typeof t !== 'string');
        if (bad) return sendProblem(res, problem('bad_request', bad.error));
        tags = found as string[];
      }
      const outcome = await deps.purger.purge(tags, 'api', { who: req.socket.remoteAddress, request: parsed.data });
      res.set('cache-control', 'no-store').json({ purged: { tags }, ...outcome });
    });

    app.post('/admin/webhook', (req, res, next) => {
      observe(res, { route: 'admin' });
      if (!deps.webhookSecret) return off(req, res);
      next();
    });
    app.post('/admin/webhook', readBody, async (req, res) => {
      const secret = deps.webhookSecret!;
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const timestamp = req.get(TIMESTAMP_HEADER) ?? '';
      const given = req.get(SIGNATURE_HEADER) ?? '';
      const unauthorized = (why: string) => sendProblem(res, problem('unauthorized', why));
      if (!/^\d{1,12}$/.test(timestamp)) return unauthorized(`${TIMESTAMP_HEADER} must be the time in seconds`);
      if (Math.abs(Date.now() / 1000 - Number(timestamp)) > WEBHOOK_WINDOW_S)
        return unauthorized('the event is too old (or from the future): refused as a replay');
      const wanted = Buffer.from(signWebhook(secret, timestamp, raw));
      const offered = Buffer.from(given);
      if (offered.length !== wanted.length || !timingSafeEqual(offered, wanted)) return unauthorized('the signature does not match');
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return sendProblem(res, problem('bad_request', 'the body must be JSON'));
      }
      const parsed = publishEvent.safeParse(body);
      if (!parsed.success) return sendProblem(res, problem('bad_request', firstIssue(parsed.error)));
      // The same event twice, in this process or anywhere in the fleet, is a replay.
      const firstHere = !seen.has(parsed.data.id);
      seen.set(parsed.data.id, true);
      const firstInFleet = deps.shared ? await deps.shared.claimOnce(`webhook:${parsed.data.id}`, WEBHOOK_WINDOW_S * 2 * 1000) : true;
      if (!firstHere || firstInFleet === false) return unauthorized(`event ${parsed.data.id} was received before: refused as a replay`);
      const tags = tagsOfEvent(parsed.data);
      const { id, event, items } = parsed.data;
      const outcome = await deps.purger.purge(tags, 'webhook', { who: req.socket.remoteAddress, id, event, items });
      res.set('cache-control', 'no-store').json({ purged: { tags }, ...outcome });
      deps.published?.(parsed.data);
    });
  };
}
