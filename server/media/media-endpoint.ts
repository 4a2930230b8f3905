/**
 * The media endpoint (docs/decisions/023): every content image served from the site's own origin
 * under /_media/, answered ahead of Express like /api/. An image address names a width from the
 * list, the original's version and its source; the answer is a variant in the best of AVIF, WebP
 * or JPEG (PNG for transparency) the client takes, with no metadata, cached in memory and on
 * disk, immutable when the version is current. A file address passes a video or captions file
 * through, with byte ranges. `describe()` tells pages an original's size, version and colour.
 */
import { clientMemo } from '../http/client-memo.js';
import { setTimeout as delay } from 'node:timers/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isContentError, type ContentError } from '../../shared/content-api.js';
import type { Config } from '../settings/config.js';
import { asProblem, problem, sendProblem } from '../http/problem.js';
import { isFresh } from '../http/representation.js';
import type { Logger } from '../observability/logger.js';
import { gaugeOnScrape, type Metrics } from '../observability/metrics.js';
import { observe } from '../observability/request-observer.js';
import { BurstLog } from '../observability/burst-log.js';
import type { GateRefusal } from '../reliability/concurrency-gate.js';
import { ALL_TAG } from '../fleet/purge-message.js';
import { DiskStore } from './disk-store.js';
import { mediaTag, parseMediaAddress, RefusedAddress, SourcePolicy, type MediaAddress } from './media-address.js';
import { acceptClass, IMMUTABLE, mediaBaseHeaders, outputFormat, sendFileBytes, SHORT_LIVED, xCache } from './media-response.js';
import { FILE_CONTENT_TYPE, IMAGE_EXTENSION, isImageType, type MediaDescription } from './media-types.js';
import type { MEDIA_SETTINGS } from '../settings/media-settings.js';
import { MediaError, OriginClient } from './origin-client.js';
import { Originals, type Original } from './originals.js';
import { Transformer, type TransformMemory } from './transform.js';
import { MadeAhead } from './ahead.js';
import { OriginalChanged, servedWidth, Variants, type VariantSource } from './variants.js';

/** The media settings (media-settings.ts) and the content API's connection and breaker settings, shared. */
type MediaSettings = Pick<
  Config,
  keyof typeof MEDIA_SETTINGS | 'UPSTREAM_CONNECT_TIMEOUT_MS' | 'UPSTREAM_BREAKER_THRESHOLD' | 'UPSTREAM_BREAKER_COOLDOWN_MS'
>;

export interface MediaDeps {
  config: MediaSettings;
  /** The content API's base URL: its origin may always be fetched from, and paths in refs are resolved against it. */
  contentApiUrl: string;
  metrics: Metrics;
  log: Logger;
  /**
   * Asked before fetching an original that nothing holds (not in memory, not on disk): a
   * ContentError refuses the fetch and is sent as it is. A request whose answer is cached never
   * gets here.
   */
  beforeOriginFetch?: ((req: IncomingMessage) => Promise<ContentError | undefined>) | undefined;
  /** Its part of the memory budget: the caches' bound in bytes, the transforms at once, the wait for room near the limit. */
  memory: TransformMemory & { maxBytes: number };
}

/** Keep-alive connections per media origin. */
const CONNECTIONS_PER_ORIGIN = 8;
const ALLOW = ['allow', 'GET, HEAD'];

export class MediaEndpoint {
  readonly policy: SourcePolicy;
  readonly #client: OriginClient;
  readonly #transformer: Transformer;
  readonly #originals: Originals;
  readonly #variants: Variants;
  readonly #metrics: Metrics['media'];
  /** The first screen's pictures of rendered pages, made ahead for phones (ahead.ts). */
  readonly ahead: MadeAhead;
  readonly #log: Logger;
  readonly #burst = new BurstLog(60_000);
  /** A refusal for want of room, said once per burst. */
  readonly #warnOncePerBurst = (msg: string) => (why: GateRefusal) => {
    if (this.#burst.first(msg)) this.#log.warn({ why }, msg);
  };
  /** Each distinct address is checked once; the answer (an address or a refusal) is reused. */
  readonly #parsed = clientMemo<MediaAddress | RefusedAddress>();

  constructor({ config, contentApiUrl, metrics, log, beforeOriginFetch, memory }: MediaDeps) {
    this.policy = new SourcePolicy(contentApiUrl, config.MEDIA_ORIGINS ?? []);
    this.#metrics = metrics.media;
    this.#log = log;
    this.#client = new OriginClient({
      timeoutMs: config.MEDIA_TIMEOUT_MS,
      maxBytes: config.MEDIA_MAX_BYTES,
      connectTimeoutMs: config.UPSTREAM_CONNECT_TIMEOUT_MS,
      connections: CONNECTIONS_PER_ORIGIN,
      breakerThreshold: config.UPSTREAM_BREAKER_THRESHOLD,
      breakerCooldownMs: config.UPSTREAM_BREAKER_COOLDOWN_MS,
      onCircuitChange: (origin, state) =>
        log[state === 'open' ? 'warn' : 'info']({ origin, state }, `media origin circuit breaker ${state}`),
    });
    this.#transformer = new Transformer({
      ...memory,
      maxPixels: config.MEDIA_MAX_PIXELS,
      timeoutMs: config.MEDIA_TIMEOUT_MS,
      onRefused: this.#warnOncePerBurst('image transforms refused: all slots busy (once per burst)'),
    });
    const disk = config.MEDIA_CACHE_DIR ? new DiskStore(config.MEDIA_CACHE_DIR, config.MEDIA_CACHE_DIR_MAX_BYTES, log) : undefined;
    this.#originals = new Originals({
      client: this.#client,
      transformer: this.#transformer,
      disk,
      canonical: (source) => this.policy.canonical(source),
      freshMs: config.MEDIA_FRESH_S * 1000,
      // A quarter for originals, but always room for the largest one accepted.
      maxBytes: Math.max(Math.floor(memory.maxBytes / 4), config.MEDIA_MAX_BYTES + 1024),
      beforeOriginFetch,
      onRefused: this.#warnOncePerBurst('new originals refused: too many being fetched (once per burst)'),
      metrics: this.#metrics,
      log,
    });
    this.#variants = new Variants(Math.floor((memory.maxBytes * 3) / 4), this.#transformer, disk, this.#metrics, log);
    gaugeOnScrape(
      metrics.registry,
      {
        name: 'media_cache_bytes',
        help: 'Bytes held by the media caches, by store: variants and originals in memory, disk (MEDIA_CACHE_DIR).',
        labelName: 'store',
      },
      () => ({ variants: this.#variants.bytesHeld, originals: this.#originals.bytesHeld, disk: disk?.bytes ?? 0 }),
    );
    this.ahead = new MadeAhead(
      config.MEDIA_MAKE_AHEAD === 'on',
      (path) => this.#makeAhead(path),
      () => this.#transformer.idle,
      log,
    );
  }

  /** Bytes the caches hold in memory; near the memory limit, both shrunk in proportion to at most `bytes` (least recently used out). */
  readonly memoryHeld = () => this.#variants.bytesHeld + this.#originals.bytesHeld;
  readonly shrinkTo = (bytes: number) => {
    const kept = bytes / Math.max(1, this.memoryHeld());
    this.#variants.shrinkTo(Math.floor(this.#variants.bytesHeld * kept));
    this.#originals.shrinkTo(Math.floor(this.#originals.bytesHeld * kept));
  };

  /** Makes the AVIF of one variant a page will want, as a request for it would (without the request's budget). */
  async #makeAhead(path: string): Promise<void> {
    const address = parseMediaAddress(path, this.policy);
    if (address instanceof RefusedAddress || address.kind !== 'image') return;
    const { original } = await this.#originals.current(address.source, { version: address.version });
    if (!isImageType(original.type)) return;
    const variant = { width: servedWidth(original, address.width, address.crop), format: outputFormat('avif', original.opaque !== false) };
    await this.#variants.get(original, { ...variant, crop: address.crop }, () => this.#originals.bytesOf(original));
  }

  /** Answers a request under /_media. */
  handle = (req: IncomingMessage, res: ServerResponse): void => {
    observe(res, { route: '/_media' });
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      this.#refuse(res, 'method', problem('method_not_allowed', `${req.method} is not allowed; use GET or HEAD`), ALLOW);
      return;
    }
    const target = req.url ?? '/';
    let address = this.#parsed.get(target);
    if (!address) this.#parsed.set(target, (address = parseMediaAddress(target, this.policy)));
    if (address instanceof RefusedAddress) {
      this.#refuse(res, address.reason, address.error);
      return;
    }
    void this.#answer(req, res, address);
  };

  /**
   * An original's version, size and colour within `budgetMs`, fetched (or revalidated) through
   * the variants' cache, so the first variant asked for next needs no second fetch. Undefined when
   * the budget runs out (the fetch goes on, for the next call) or the source cannot be served (not
   * allowed, not an image, missing: logged). `source`: an absolute URL or a path on the content API.
   */
  async describe(source: string, { budgetMs }: { budgetMs: number }): Promise<MediaDescription | undefined> {
    const url = this.policy.resolve(source);
    if (url instanceof RefusedAddress || !IMAGE_EXTENSION.test(url.pathname)) {
      if (this.#burst.first(`describe ${source}`)) this.#log.warn({ source }, 'media source refused: not an image on an allowed origin');
      return undefined;
    }
    const looked = this.#originals.current(url, {}).then(
      ({ original }) => original,
      (error: unknown) => {
        // A refusal for busy transform slots is expected in a burst: the next answer learns it.
        if (!(error instanceof MediaError) && !isContentError(error)) {
          this.#log.warn({ source: url.href, err: String(error) }, 'media source could not be described');
        }
        return undefined;
      },
    );
    const stop = new AbortController();
    const outOfTime = delay(budgetMs, undefined, { signal: stop.signal }).catch(() => undefined);
    const original = await Promise.race([looked, outOfTime]);
    stop.abort();
    if (!original || !isImageType(original.type)) return undefined;
    return {
      v: original.version,
      width: original.width!,
      height: original.height!,
      type: original.type,
      color: original.color!,
      opaque: original.opaque ?? false,
    };
  }

  /** Marks stale the originals a purge names (their `media:` tag, or `all`): the next request asks their origins again. */
  markStale(tags: ReadonlySet<string>): number {
    return this.#originals.markStale((url) => tags.has(ALL_TAG) || tags.has(mediaTag(this.policy.canonical(new URL(url)))));
  }

  async #answer(req: IncomingMessage, res: ServerResponse, address: MediaAddress): Promise<void> {
    try {
      // Once more if the original changed while its variant was being made.
      for (let attempt = 0; ; attempt++) {
        try {
          const { original, stale } = await this.#originals.current(address.source, { version: address.version, req });
          if (address.kind === 'file') return await this.#sendFile(req, res, address, original, stale);
          return await this.#sendImage(req, res, address, original, stale);
        } catch (error) {
          if (!(error instanceof OriginalChanged) || attempt > 0) throw error;
        }
      }
    } catch (error) {
      const failure = asProblem(error);
      const reason = error instanceof MediaError ? error.kind : failure.code === 'internal' ? 'internal' : failure.code;
      if (failure.code === 'internal') this.#log.error({ err: error, source: address.source.href }, 'media request failed');
      this.#refuse(res, reason, failure);
    }
  }

  async #sendImage(req: IncomingMessage, res: ServerResponse, address: MediaAddress, original: Original, stale: boolean): Promise<void> {
    if (!isImageType(original.type))
      throw new MediaError('not_allowed_type', problem('upstream_invalid', 'the source is not an image (by its bytes)'));
    const format = outputFormat(acceptClass(req.headers.accept), original.opaque !== false);
    const width = servedWidth(original, address.width!, address.crop);
    const { variant, from } = await this.#variants.get(original, { width, format, crop: address.crop }, () =>
      this.#originals.bytesOf(original),
    );
    const head = [
      ...mediaBaseHeaders(res, address.tag),
      'content-type',
      variant.contentType,
      'cache-control',
      address.version === original.version ? IMMUTABLE : SHORT_LIVED,
      'vary',
      'Accept',
      'etag',
      variant.etag,
      'x-cache',
      xCache(from, stale),
    ];
    this.#sent(res, from, stale);
    if (isFresh(req, { etag: variant.etag })) {
      this.#metrics.requests('not_modified', '').inc();
      res.writeHead(304, head).end();
      return;
    }
    head.push('content-length', String(variant.body.length));
    res.writeHead(200, head).end(req.method === 'HEAD' ? undefined : variant.body);
  }

  async #sendFile(req: IncomingMessage, res: ServerResponse, address: MediaAddress, original: Original, stale: boolean): Promise<void> {
    if (isImageType(original.type))
      throw new MediaError('not_allowed_type', problem('upstream_invalid', 'the source is not a video or captions file (by its bytes)'));
    const { bytes } = await this.#originals.bytesOf(original);
    const etag = `"${original.hash.slice(0, 27)}"`;
    const head = [
      ...mediaBaseHeaders(res, address.tag),
      'content-type',
      FILE_CONTENT_TYPE[original.type],
      'cache-control',
      address.version === original.version ? IMMUTABLE : SHORT_LIVED,
      'accept-ranges',
      'bytes',
      'etag',
      etag,
      'x-cache',
      stale ? 'STALE' : 'HIT',
    ];
    this.#metrics.requests(stale ? 'stale' : 'file', '').inc();
    observe(res, { cache: stale ? 'STALE' : 'HIT' });
    sendFileBytes(req, res, head, etag, bytes);
  }

  #sent(res: ServerResponse, from: VariantSource, stale: boolean): void {
    this.#metrics.requests(stale ? 'stale' : from, '').inc();
    observe(res, { cache: xCache(from, stale) });
  }

  #refuse(res: ServerResponse, reason: string, error: ContentError, extra: readonly string[] = []): void {
    this.#metrics.requests('refused', reason).inc();
    observe(res, { cache: 'REFUSED' });
    sendProblem(res, error, extra);
  }

  async close(): Promise<void> {
    await this.#client.close();
  }
}
