/**
 * What is known of each original, and its bytes while they are needed. A record (version, type,
 * size, colour, the origin's validators) is kept per source URL in lru-cache, whose fetch() makes
 * one call to the origin however many requests ask at once; it is taken as current for
 * MEDIA_FRESH_S, then revalidated with the origin's ETag or Last-Modified; when the origin fails,
 * the last good record stands in (and so do the variants made from it). The bytes are kept by
 * content hash, bounded, apart from the records: a variant already made needs only its record.
 * With a cache directory, records (and files' bytes) are kept on disk across restarts, named by
 * the source's canonical reference, so that a content API whose address changed (the embedded one
 * listens on a new port at each start) still finds them. At most IN_HAND calls to origins run at
 * once, so that the bytes waiting to be looked at stay bounded.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { ContentError } from '../../shared/content-api.js';
import type { Logger } from '../observability/logger.js';
import type { MediaMetrics } from '../observability/metrics.js';
import type { Validators } from '../upstream/upstream-client.js';
import { BurstLog } from '../observability/burst-log.js';
import { ConcurrencyGate, type GateRefusal } from '../reliability/concurrency-gate.js';
import type { DiskStore } from './disk-store.js';
import { isImageType, sniff, type SourceType } from './media-types.js';
import { mediaError, MediaError, type OriginClient } from './origin-client.js';
import { IMAGE_WAIT_MS, type Transformer } from './transform.js';
import { shrinkLru } from '../reliability/memory-pressure.js';

export interface Original {
  url: string;
  /** The first 12 hex digits of the SHA-256 of its bytes. */
  version: string;
  /** The whole SHA-256, hex: the key of its bytes and variants. */
  hash: string;
  type: SourceType;
  bytes: number;
  /** Images only: the size after orientation, opacity and dominant colour. */
  width?: number;
  height?: number;
  opaque?: boolean;
  color?: string;
  validators: Validators;
  /** When the origin last said this is current (epoch ms). */
  checkedAt: number;
  /** When asking the origin last failed (epoch ms): it is not asked again for a moment. */
  failedAt?: number;
}

/** A lasting refusal (not found, too large, not an image, a bomb), kept for a while as the answer. */
interface Refusal {
  refused: MediaError;
  until: number;
}

type Entry = Original | Refusal;

interface LoadContext {
  needBytes: boolean;
  /** Set by the load when it answered with the last good record because the origin failed. */
  stale?: boolean;
}

/** What a request knows: the version its address names, and itself (for the miss budget). */
export interface Want {
  version?: string;
  req?: IncomingMessage | undefined;
}

export interface OriginalsDeps {
  client: OriginClient;
  transformer: Transformer;
  disk: DiskStore | undefined;
  /** The name a source's record is kept under on disk (SourcePolicy.canonical: a path on the content API). */
  canonical: (source: URL) => string;
  freshMs: number;
  /** Bound of the bytes kept in memory. */
  maxBytes: number;
  /** Told when a call to an origin is refused for want of room (the burst log decides what to say). */
  onRefused?: (why: GateRefusal) => void;
  /** Asked before fetching an original that nothing holds; a ContentError refuses the fetch. */
  beforeOriginFetch?: ((req: IncomingMessage) => Promise<ContentError | undefined>) | undefined;
  metrics: MediaMetrics;
  log: Logger;
}

/** How long a lasting refusal is the answer before the origin is asked again. */
const REFUSAL_MS = 60_000;
/** After a failed call, the last good record is served without asking again for this long. */
const RETRY_MS = 2_000;
/** An address naming a version other than the current one asks the origin at most this often. */
const RECHECK_MS = 5_000;
/**
 * Calls to origins at once, each holding its answer's bytes until they are looked at: the bound
 * of the originals in memory that no cache counts. The rest wait without bytes (a first view's
 * forty images, a few pages' worth); past the queue, or after IMAGE_WAIT_MS, 503 `busy` before
 * anything is fetched, so that a burst of new images is refused without downloading it
 * (bench/media.js).
 */
const IN_HAND = 8;
const IN_HAND_QUEUE = 128;

const isRefusal = (entry: Entry): entry is Refusal => 'refused' in entry;

export class Originals {
  readonly #records: LRUCache<string, Entry, LoadContext>;
  readonly #bytes: LRUCache<string, Buffer>;
  readonly #burst = new BurstLog(60_000);
  /** Sources being fetched now: a request for one joins that fetch. */
  readonly #loading = new Set<string>();
  readonly #inHand: ConcurrencyGate;

  constructor(private readonly deps: OriginalsDeps) {
    this.#inHand = new ConcurrencyGate(IN_HAND, IN_HAND_QUEUE, IMAGE_WAIT_MS, deps.onRefused, {
      many: 'new originals',
      one: 'new original',
    });
    this.#records = new LRUCache<string, Entry, LoadContext>({
      max: 10_000,
      // A failed load that threw (no record to stand in, or no transform slot) leaves what was held.
      noDeleteOnFetchRejection: true,
      fetchMethod: async (key, stale, { signal, context }) => {
        this.#loading.add(key);
        try {
          return await this.#inHand.run(() => this.#load(new URL(key), stale, context, signal));
        } finally {
          this.#loading.delete(key);
        }
      },
    });
    this.#bytes = new LRUCache<string, Buffer>({ maxSize: deps.maxBytes, sizeCalculation: (b) => b.length + 64 });
  }

  /** Bytes of originals held in memory; near the memory limit, shrunk to at most `bytes` (least recently used out). */
  get bytesHeld(): number {
    return this.#bytes.calculatedSize;
  }
  readonly shrinkTo = (bytes: number) => shrinkLru(this.#bytes, bytes);

  /**
   * The current record of a source: held and current, read from disk, or asked of the origin
   * (once, whoever else asks meanwhile). `stale` when the origin failed and the last good one is
   * served. Throws a ContentError when there is none (refused, not found, the origin down).
   */
  async current(url: URL, want: Want): Promise<{ original: Original; stale: boolean }> {
    const key = url.href;
    if (this.#loading.has(key)) return this.#fetch(key, false);
    let entry = this.#records.get(key);
    if (!entry) {
      entry = await this.#fromDisk(key);
      if (!entry) {
        // Nothing holds it: the fetch it needs is the request's to pay for.
        const refusal = want.req && (await this.deps.beforeOriginFetch?.(want.req));
        if (refusal) throw refusal;
      }
    }
    const now = Date.now();
    if (entry && isRefusal(entry) && now < entry.until) throw entry.refused;
    if (entry && !isRefusal(entry)) {
      if (want.version === entry.version || now < entry.checkedAt + this.deps.freshMs) return { original: entry, stale: false };
      const failedLately = entry.failedAt !== undefined && now < entry.failedAt + RETRY_MS;
      const checkedLately = want.version !== undefined && want.version !== '0' && now < entry.checkedAt + RECHECK_MS;
      if (failedLately) return { original: entry, stale: true };
      if (checkedLately) return { original: entry, stale: false };
    }
    return this.#fetch(key, false);
  }

  /**
   * The bytes of an original, to make a variant: from memory, from disk (files), or fetched
   * again. The record comes back too: when the bytes fetched are not the ones the record named
   * (the original changed meanwhile), it is the new record.
   */
  async bytesOf(original: Original): Promise<{ original: Original; bytes: Buffer }> {
    const held = this.#bytes.get(original.hash) ?? (await this.#fileFromDisk(original));
    if (held) return { original, bytes: held };
    const fetched = await this.#fetch(original.url, true);
    const bytes = this.#bytes.get(fetched.original.hash);
    if (!bytes) throw mediaError('too_large', 'the original does not fit in the media cache');
    return { original: fetched.original, bytes };
  }

  /** Records whose URL `purged` names are no longer current: the next request revalidates them. Returns how many. */
  markStale(purged: (url: string) => boolean): number {
    const marked: [string, Original][] = [];
    this.#records.forEach((entry, key) => {
      if (!isRefusal(entry) && purged(key)) marked.push([key, entry]);
    });
    for (const [key, entry] of marked) this.#records.set(key, { ...entry, checkedAt: 0 });
    return marked.length;
  }

  async #fetch(key: string, needBytes: boolean): Promise<{ original: Original; stale: boolean }> {
    const context: LoadContext = { needBytes };
    const entry = await this.#records.fetch(key, { context, forceRefresh: true });
    if (!entry) throw mediaError('unreachable', 'the original could not be had');
    if (isRefusal(entry)) throw entry.refused;
    return { original: entry, stale: context.stale === true };
  }

  /** One call to the origin: conditional when the record (and, if needed, the bytes) are held. */
  async #load(url: URL, previousEntry: Entry | undefined, context: LoadContext, signal: AbortSignal): Promise<Entry> {
    const { client, metrics } = this.deps;
    const previous = previousEntry && !isRefusal(previousEntry) ? previousEntry : undefined;
    const conditional = previous !== undefined && (!context.needBytes || this.#bytes.has(previous.hash));
    try {
      const answer = await client.get(url, conditional ? previous.validators : {}, signal);
      metrics.originFetches(answer.status === 304 ? 'not_modified' : 'ok').inc();
      if (answer.status === 304 && previous) {
        const validators = {
          etag: answer.validators.etag ?? previous.validators.etag,
          lastModified: answer.validators.lastModified ?? previous.validators.lastModified,
        };
        return this.#keep({ ...previous, validators, checkedAt: Date.now(), failedAt: undefined });
      }
      const original = await this.#inspect(url, answer.body, answer.validators);
      this.#bytes.set(original.hash, answer.body);
      if (!isImageType(original.type)) void this.deps.disk?.write(fileName(original.hash), answer.body);
      return this.#keep(original);
    } catch (error) {
      if (!(error instanceof MediaError)) throw error;
      metrics.originErrors(error.kind).inc();
      this.#logFailure(url, error);
      if (error.lasting) return { refused: error, until: Date.now() + REFUSAL_MS };
      if (previous) {
        context.stale = true;
        return { ...previous, failedAt: Date.now() };
      }
      throw error;
    }
  }

  /** What the bytes are: refused when they are no type served, or an image too large to decode. */
  async #inspect(url: URL, body: Buffer, validators: Validators): Promise<Original> {
    const type = sniff(body);
    if (!type) throw mediaError('not_allowed_type', 'the source is not an image, video or captions file (by its bytes)');
    const hash = createHash('sha256').update(body).digest('hex');
    const original: Original = {
      url: url.href,
      version: hash.slice(0, 12),
      hash,
      type,
      bytes: body.length,
      validators,
      checkedAt: Date.now(),
    };
    if (!isImageType(type)) return original;
    const size = await this.deps.transformer.header(body, type);
    const look = await this.deps.transformer.analyse(body, type);
    return { ...original, ...size, ...look };
  }

  #keep(original: Original): Original {
    // On disk the record names its source as the site does, not by the address it was fetched at.
    const name = this.deps.canonical(new URL(original.url));
    void this.deps.disk?.write(recordName(name), Buffer.from(JSON.stringify({ ...original, url: name })));
    return original;
  }

  async #fromDisk(key: string): Promise<Original | undefined> {
    const name = this.deps.canonical(new URL(key));
    const data = await this.deps.disk?.read(recordName(name));
    if (!data) return undefined;
    try {
      const kept = JSON.parse(data.toString('utf8')) as Original;
      if (kept.url !== name || !/^[0-9a-f]{64}$/.test(kept.hash)) return undefined;
      const original = { ...kept, url: key };
      if (!this.#loading.has(key) && !this.#records.has(key)) this.#records.set(key, original);
      return original;
    } catch {
      return undefined;
    }
  }

  async #fileFromDisk(original: Original): Promise<Buffer | undefined> {
    if (isImageType(original.type)) return undefined;
    const bytes = await this.deps.disk?.read(fileName(original.hash));
    if (bytes) this.#bytes.set(original.hash, bytes);
    return bytes;
  }

  /** A failure with its context; the limits (a bomb, too large) once per origin and burst. */
  #logFailure(url: URL, error: MediaError): void {
    const context = { source: url.href, kind: error.kind, err: error.message };
    if (error.kind === 'circuit_open') return;
    if (error.kind === 'too_large' || error.kind === 'too_many_pixels') {
      if (this.#burst.first(`${error.kind} ${url.origin}`))
        this.deps.log.warn(context, 'media original refused by a limit (once per origin and burst)');
      return;
    }
    this.deps.log.warn(context, 'media original could not be fetched');
  }
}

/** Where a record is kept on disk: by the SHA-256 of its canonical reference. */
const recordName = (canonical: string) => `originals/${createHash('sha256').update(canonical).digest('hex')}.json`;
/** Where a file's bytes (video, captions) are kept on disk: by their content hash. */
const fileName = (hash: string) => `files/${hash.slice(0, 2)}/${hash}`;
