/**
 * Purges (decision 018): what was made from some content is marked stale everywhere it is kept,
 * so that the next visitor gets the new content, and the last good copy still stands in if the
 * content API fails. A purge names tags (proxy/cache-tags.ts); a purge of paths names their `url:`
 * tags; purging everything names the tag every cached thing carries.
 *
 * Order matters: the fleet's shared tier first (so that no process refills itself from what was
 * purged), then this process's own caches and the edges, then the message to the fleet's other
 * processes, each of which does its own caches and then tells the edges again. The last process
 * to apply a purge is thus the last to purge the edges, and no edge keeps a copy that a slower
 * process refilled it with.
 */
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { PurgeGeneration } from '../fleet/purge-generation.js';
import { ALL_TAG, type PurgeBus } from '../fleet/purge-message.js';
import type { SharedTier } from '../fleet/shared-tier.js';
import type { ContentCache } from '../proxy/content-cache.js';

export interface PurgeOutcome {
  /** Answers the fleet's shared tier marked stale; undefined without it (or when Redis could not). */
  shared: number | undefined;
  /** Whether the fleet was told (always, with no fleet; false while Redis is away). */
  fleet: boolean;
}

export interface PurgerDeps {
  cache: ContentCache;
  /** The rendered pages' cache (render/page-cache.ts): marks what carries a tag stale, says how many. */
  pageCache: { purge(tags: ReadonlySet<string>): number } | undefined;
  /** When this process last purged, for both caches. */
  purges: PurgeGeneration;
  /** The media endpoint's originals: a purged one is asked of its origin again (server/media). */
  media?: { markStale(tags: ReadonlySet<string>): number } | undefined;
  shared: SharedTier | undefined;
  bus: PurgeBus;
  edges: readonly string[];
  log: Logger;
  metrics: Metrics;
  /** Told of every purge applied in this process, once the caches are marked (the search index reads what it names again). */
  applied?: ((tags: readonly string[]) => void) | undefined;
}

const EDGE_TIMEOUT_MS = 2_000;
const MAX_WAITING = 1_000;
const RETRY_MS = 250;

export class Purger {
  readonly #id = randomUUID();
  #waiting: (readonly string[])[] = [];
  #retry: NodeJS.Timeout | undefined;
  #retrying = false;

  constructor(private readonly deps: PurgerDeps) {
    deps.bus.listen((message) => {
      if (message.from !== this.#id) void this.#apply(message.tags);
    });
  }

  /**
   * A purge asked of this process (the purge API, a publish event), for the whole fleet and the
   * edges; done here when it returns, under way in the other processes. What could not reach the
   * shared tier or the fleet (Redis away) is done again when Redis is back.
   */
  async purge(tags: readonly string[], source: 'api' | 'webhook', what: Record<string, unknown>): Promise<PurgeOutcome> {
    const { log, metrics } = this.deps;
    metrics.purges(source).inc();
    const outcome = await this.#tellFleet(tags, true);
    const shown = tags.length > 20 ? [...tags.slice(0, 20), `… ${tags.length} in all`] : tags;
    log.info({ source, ...what, tags: shown, ...outcome }, 'purge');
    if (!outcome.fleet) {
      log.warn({ tags: shown }, 'purge not passed on to the fleet yet (Redis is away): it will be when Redis is back');
      this.#keep(tags);
    }
    return outcome;
  }

  /** The shared tier, this process (the first time), then the other processes. */
  async #tellFleet(tags: readonly string[], here: boolean): Promise<PurgeOutcome> {
    const { shared, bus } = this.deps;
    const marked = shared ? await shared.markStale(tags, this.deps.cache.purgedFreshUntil()) : undefined;
    if (here) await this.#apply(tags);
    const told = (!shared || marked !== undefined) && (await bus.publish({ from: this.#id, tags }));
    return { shared: marked, fleet: told };
  }

  /** Keeps a purge that did not reach the fleet, and tries it again until it does. */
  #keep(tags: readonly string[]): void {
    this.#waiting.push(tags);
    // Past a thousand waiting, one purge of everything does for them all.
    if (this.#waiting.length > MAX_WAITING) this.#waiting = [[ALL_TAG]];
    this.#retry ??= setInterval(() => void this.#retryWaiting(), RETRY_MS);
  }

  async #retryWaiting(): Promise<void> {
    if (this.#retrying) return;
    this.#retrying = true;
    try {
      while (this.#waiting.length > 0) {
        if (!(await this.#tellFleet(this.#waiting[0]!, false)).fleet) return;
        this.#waiting.shift();
      }
      clearInterval(this.#retry);
      this.#retry = undefined;
      this.deps.log.info('the purges kept while Redis was away have reached the fleet');
    } finally {
      this.#retrying = false;
    }
  }

  /** Stops trying again (the service is stopping). */
  close(): void {
    clearInterval(this.#retry);
  }

  /** Applies a purge to this process's caches, then passes it on to the edges. */
  async #apply(tags: readonly string[]): Promise<void> {
    const set = new Set(tags);
    this.deps.purges.mark();
    const { marked: answers, images } = this.deps.cache.markStale(set);
    const pages = this.deps.pageCache?.purge(set) ?? 0;
    // The images a purged answer names are asked for again too (a 304 when unchanged): a publish
    // whose editor replaced a picture's bytes under the same address shows the new one.
    const media = this.deps.media?.markStale(new Set([...set, ...images])) ?? 0;
    this.deps.log.debug({ answers, pages, media }, 'purge applied here');
    this.deps.applied?.(tags);
    await Promise.all(this.deps.edges.map((edge) => this.#purgeEdge(edge, tags)));
  }

  /** Asks an edge to let go of everything tagged so (Varnish's xkey, deploy/varnish/default.vcl). */
  async #purgeEdge(edge: string, tags: readonly string[]): Promise<void> {
    try {
      const res = await request(edge, {
        method: 'PURGE',
        headers: { 'x-purge-tags': tags.join(' ') },
        signal: AbortSignal.timeout(EDGE_TIMEOUT_MS),
      });
      await res.body.dump();
      if (res.statusCode !== 200) throw new Error(`the edge answered ${res.statusCode}`);
      this.deps.metrics.edgePurges('ok').inc();
    } catch (error) {
      this.deps.metrics.edgePurges('error').inc();
      this.deps.log.error({ edge, err: String(error) }, 'edge purge failed: the edge keeps its copies until they expire');
    }
  }
}
