/**
 * What the core tells observers, as undici does (docs/decisions/027): named `node:diagnostics_channel`
 * channels that cost a flag check when nobody listens. The cache and the page handler publish
 * here and know nothing of tracing; tracing (tracing-sdk.ts), when it is on, subscribes. Calls
 * to the content API need nothing of ours: undici publishes its own (`undici:request:*`).
 */
import type { ServerResponse } from 'node:http';
import { channel, tracingChannel } from 'node:diagnostics_channel';

/** Which tier answered a cache lookup: this process's memory, the shared tier, or neither (the content API). */
type CacheTier = 'memory' | 'shared' | 'miss';

/** A cache lookup that may wait (ContentCache.get). */
export interface LookupEvent {
  key: string;
  /** What it found, once it has: the cache's status (`HIT`, `MISS`…; proxy/cached-answer.ts). */
  status?: string;
  tier?: CacheTier;
  /** It joined a fetch of the same key already under way, and waited for it. */
  coalesced?: boolean;
  /** It was answered stale at once while a refresh runs in the background. */
  backgroundRefresh?: boolean;
  /** The lookup whose fetch it waited for. */
  waitedFor?: LookupEvent | undefined;
}

/** A page render, from its loaders to the end of its stream (the response's close). */
export interface RenderEvent {
  res: ServerResponse;
  variant: string;
  /** The route the router matched and the status the page is sent with. */
  route?: string;
  status?: number;
  /** Bytes of HTML written, before compression. */
  bytes: number;
  /** The client's copy was current: a 304, nothing rendered. */
  notModified?: boolean;
  error?: unknown;
}

/** Around each lookup that may wait: start, then end (or error) when it has its answer. */
export const lookupChannel = tracingChannel<LookupEvent, object>('site:cache.lookup');
/** A fresh answer found at once in this process's memory. */
export const hitChannel = channel('site:cache.hit');
/** Around a page's loaders; the event's facts are complete when `res` closes. */
export const renderChannel = tracingChannel<RenderEvent, object>('site:page.render');
/** A page answered from the page cache: `{ res, variant }`. */
export const pageHitChannel = channel('site:page.hit');
