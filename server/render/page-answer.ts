/**
 * One page render's state, and what the page it draws is sent with: its validator, its tags, its
 * headers and its page-cache key, all known before the first byte of the body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { canonicalHref } from '../../shared/site/href.js';
import { ALL_TAG } from '../fleet/purge-message.js';
import { weakEtag } from '../http/representation.js';
import type { TrustedProxies } from '../http/trusted-proxies.js';
import type { RenderEvent } from '../observability/diagnostics.js';
import { urlTag } from '../proxy/cache-tags.js';
import { cacheControl } from '../proxy/cached-answer.js';
import type { Budget, Spent } from '../reliability/miss-limiter.js';
import type { Config } from '../settings/config.js';
import { canonicalUrl } from './document-head.js';
import { notFoundKey, pageKey } from './page-key.js';
import { varyOf, type PageVariant } from './page-variant.js';
import type { RenderReads } from './render-tracking.js';

/** One render's state, from its request to its last byte. */
export interface RenderJob {
  req: IncomingMessage;
  res: ServerResponse;
  controller: AbortController;
  /** The address is no route: the one not-found page is drawn, at NOT_FOUND_PATH. */
  notFound: boolean;
  origin: string;
  url: URL;
  variant: PageVariant;
  /** What observers (tracing) see of this render, when any listens. */
  observed: RenderEvent | undefined;
  started: number;
  /** The page cache's generation when the render began: a purge meanwhile keeps it from being stored. */
  renderedAt: number;
  reads: RenderReads;
  /** The client's budget is spent once per render, at its first read that calls the content API. */
  admitted?: Promise<Spent>;
  budget?: Budget;
}

/** What a rendered page is sent with, and where it is kept. */
export interface PageAnswer {
  etag: string;
  tags: string[];
  headers: string[];
  vary: string[];
  /** The page cache's key, when the page is kept. */
  key: string | false | undefined;
}

interface AnswerDeps {
  assets: { version: string };
  rumSampleRate: number;
  windows: Pick<Config, 'CACHE_STALE_WHILE_REVALIDATE_S' | 'CACHE_STALE_IF_ERROR_S'>;
  /** Absent when the page cache is switched off. */
  pageCache: unknown;
  trusted: TrustedProxies;
}

/**
 * The page's validator, tags, headers and cache key. Its ETag is made from what it was drawn from
 * (the build, the variant, the address and the validators of its data), so it is known before the
 * body is written.
 */
export function answerOf(job: RenderJob, status: number, deps: AnswerDeps): PageAnswer {
  const { req, reads, url } = job;
  const etag = weakEtag(
    deps.assets.version,
    job.variant.name,
    `rum=${deps.rumSampleRate}`,
    canonicalUrl(job.origin, url),
    String(status),
    ...[...reads.etags].sort(),
  );
  const path = canonicalHref(url.pathname, url.searchParams) ?? url.pathname;
  const tags = [...new Set([ALL_TAG, urlTag(path), ...reads.tags])];
  const sharedMaxAge = Math.max(0, Math.floor((reads.reuseUntil - Date.now()) / 1000));
  const headers = [
    'content-type',
    'text/html; charset=utf-8',
    // A browser revalidates every visit (ETag, 304); an edge keeps the page while its data is fresh.
    'cache-control',
    status === 200 ? cacheControl(200, sharedMaxAge, deps.windows) : 'no-store',
    ...(status === 200 ? ['cache-tag', tags.join(', ')] : []),
    // Refused for now (the client's budget, or no slot for a call): when to ask again.
    ...((status === 429 || status === 503) && reads.retryAfterS !== undefined ? ['retry-after', String(reads.retryAfterS)] : []),
  ];
  const key = !deps.pageCache
    ? undefined
    : job.notFound
      ? status === 404 && notFoundKey(req, deps.trusted)
      : status === 200 && pageKey(req, deps.trusted);
  return { etag, tags, headers, vary: ['vary', varyOf(req, deps.trusted)], key };
}
