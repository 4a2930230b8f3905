/**
 * The site's search, in each process (docs/decisions/035): the index, built off the request path
 * when the service starts and again on a schedule, changed for what each purge names (a publish
 * is findable within a second or two), and the answers to queries, kept in a small cache bounded
 * by bytes. Builds and changes run one at a time; the index in use answers until a new one is
 * whole, and stays when a build fails (it is tried again, later and later).
 */
import { setImmediate } from 'node:timers/promises';
import { LRUCache } from 'lru-cache';
import type { ContentApi } from '../../shared/content-api.js';
import { problem } from '../../shared/problems.js';
import { SEARCH_KINDS } from '../../shared/search-query.js';
import type { SearchAnswer, SearchKind, SearchQuery } from '../../shared/search.js';
import { Representation } from '../http/representation.js';
import { BurstLog } from '../observability/burst-log.js';
import type { Logger } from '../observability/logger.js';
import { gaugeOnScrape, type Metrics } from '../observability/metrics.js';
import { ContentSource } from './content-source.js';
import { answerFrom } from './search-answer.js';
import { SearchIndex } from './search-index.js';
import { ZeroResults } from './zero-results.js';
import { shrinkLru } from '../reliability/memory-pressure.js';

/** The whole index is read again this often, for what no purge named (a deletion without an event). */
const REBUILD_EVERY_MS = 10 * 60_000;
/** Purges that come together are applied together. */
const CHANGES_AFTER_MS = 50;
/** A failed build is tried again after these waits, then every last one. */
const RETRY_MS = [1_000, 2_000, 5_000, 10_000, 30_000];
/**
 * While a whole index is built, the event loop is given back after this much indexing at a time:
 * requests wait at most about this long for it, far below the lag that sheds load
 * (SHED_EVENT_LOOP_LAG_MS), on a busy machine as on a quiet one.
 */
const SLICE_MS = 10;
/** A query that takes longer than this is logged (once per minute), with how many terms it had. */
const SLOW_QUERY_MS = 50;
/** Before the first index, a query waits this long for it (a few seconds on the demo content), then is refused 503. */
const FIRST_BUILD_WAIT_MS = 8_000;

/** An answer as kept: the payload for pages, its JSON envelope for the API. */
export interface StoredSearch {
  answer: SearchAnswer;
  body: Representation;
  /** The index it came from: the same query on the same index gives the same answer. */
  version: number;
}

export interface SearchServiceDeps {
  /** Reads through the content cache, without a client's budget: nobody waits for the index. */
  api: ContentApi;
  log: Logger;
  metrics: Metrics;
  /** Built as the service starts, or when first searched (SEARCH_INDEX). */
  firstBuild: 'start' | 'first-use';
  /** The bound of the cache of answers (a few thousand typical ones): its share of the memory budget. */
  answersMaxBytes: number;
}

const keyOf = (q: SearchQuery) => [q.q, q.kind ?? '', q.page, q.pageSize, q.hospital ?? '', q.specialty ?? ''].join('\u0000');

export class SearchService {
  readonly #deps: SearchServiceDeps;
  readonly #source: ContentSource;
  #index: SearchIndex | undefined;
  #version = 0;
  readonly #answers: LRUCache<string, StoredSearch>;
  readonly #zero = new ZeroResults();
  readonly #slow = new BurstLog(60_000);
  /** One build or change at a time, in order. */
  #work: Promise<void> = Promise.resolve();
  readonly #pending = new Set<string>();
  #changeTimer: NodeJS.Timeout | undefined;
  /** The first build has been asked for. */
  #building = false;
  readonly #rebuildTimer: NodeJS.Timeout;
  readonly #stopping = new AbortController();
  /** Bytes of answers held; and near the memory limit, the least recently used let go until at most `bytes` are. */
  readonly memoryHeld = () => this.#answers.calculatedSize;
  readonly shrinkTo = (bytes: number) => shrinkLru(this.#answers, bytes);
  /** Resolves when the first index is in use. */
  #builtNow: () => void = () => {};
  readonly #firstBuilt = new Promise<void>((resolve) => (this.#builtNow = resolve));

  constructor(deps: SearchServiceDeps) {
    this.#deps = deps;
    this.#answers = new LRUCache({
      maxSize: deps.answersMaxBytes,
      sizeCalculation: (s, key) => key.length * 2 + s.body.maxBytes * 3 + 512,
    });
    this.#source = new ContentSource(deps.api);
    gaugeOnScrape(
      deps.metrics.registry,
      { name: 'search_index_documents', help: 'Items in the search index (with workers, summed: each holds its own).' },
      () => this.#index?.size ?? 0,
    );
    // Built now (off the request path), or when first searched, and again every REBUILD_EVERY_MS.
    if (deps.firstBuild === 'start') this.#buildFirst();
    this.#rebuildTimer = setInterval(
      () =>
        this.#enqueue(async () => {
          // Not before the first build (with SEARCH_INDEX=first-use, perhaps never).
          if (this.#index) await this.#build('schedule');
        }),
      REBUILD_EVERY_MS,
    ).unref();
  }

  /** True once an index has been built. */
  get ready(): boolean {
    return this.#index !== undefined;
  }

  /** Resolves when the work asked for so far is done (tests, and the benchmark). */
  settled(): Promise<void> {
    return this.#work;
  }

  /** A purge was applied in this process: what its tags name is read again and put in the index (a function, handed to the Purger). */
  readonly changed = (tags: readonly string[]): void => {
    for (const tag of tags) this.#pending.add(tag);
    this.#changeTimer ??= setTimeout(() => {
      this.#changeTimer = undefined;
      const batch = [...this.#pending];
      this.#pending.clear();
      this.#enqueue(() => this.#applyChanges(batch));
    }, CHANGES_AFTER_MS);
  };

  /** The answer to a query, when the cache has it (a hit costs no work, and no budget). */
  cached(query: SearchQuery): StoredSearch | undefined {
    const stored = this.#answers.get(keyOf(query));
    if (stored) this.#count(stored.answer);
    return stored;
  }

  /**
   * The answer to a query: from the cache, else computed now once `admit` (the client's budget,
   * shedding) lets it. A 503 while the first index is being built.
   */
  async answer(query: SearchQuery, admit?: () => Promise<void>): Promise<StoredSearch> {
    const hit = this.cached(query);
    if (hit) return hit;
    if (!this.#index) {
      this.#buildFirst();
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, FIRST_BUILD_WAIT_MS)));
      await Promise.race([this.#firstBuilt, waited]);
      clearTimeout(timer);
    }
    if (!this.#index) throw problem('busy', 'the search index is being built; try again in a few seconds', 2);
    await admit?.();
    const stored = this.#compute(this.#index, query);
    this.#answers.set(keyOf(query), stored);
    this.#count(stored.answer);
    return stored;
  }

  /** The queries that found nothing, most asked first. */
  zeroResults(n = 20): [string, number][] {
    return this.#zero.top(n);
  }

  stop(): void {
    this.#stopping.abort();
    clearInterval(this.#rebuildTimer);
    clearTimeout(this.#changeTimer);
  }

  #count(answer: SearchAnswer): void {
    const result = answer.query === '' ? 'browse' : answer.total === 0 ? 'none' : answer.partial ? 'partial' : 'found';
    this.#deps.metrics.searchQueries(result).inc();
    if (result === 'none' && answer.page === 1) this.#zero.note(answer.query);
  }

  #compute(index: SearchIndex, query: SearchQuery): StoredSearch {
    const started = performance.now();
    const answer = answerFrom(index, query);
    const ms = performance.now() - started;
    if (ms > SLOW_QUERY_MS && this.#slow.first('slow')) {
      this.#deps.log.warn({ ms: Math.round(ms), chars: query.q.length, documents: index.size }, 'a search query was slow');
    }
    return { answer, body: new Representation(Buffer.from(JSON.stringify({ data: answer }))), version: this.#version };
  }

  #enqueue(work: () => Promise<void>): void {
    this.#work = this.#work.then(work).catch((error: unknown) => {
      this.#deps.log.error({ err: error }, 'search index work failed');
    });
  }

  /** Starts the first build, once. */
  #buildFirst(): void {
    if (this.#building) return;
    this.#building = true;
    this.#enqueue(() => this.#buildUntilBuilt());
  }

  /** The first build: tried again, later and later, until it succeeds (the content API may be down at start). */
  async #buildUntilBuilt(): Promise<void> {
    for (let attempt = 0; !this.#stopping.signal.aborted; attempt++) {
      if (await this.#build('start')) return;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]).unref());
    }
  }

  /** A whole new index, swapped in when complete; false (the old one kept) when the content could not all be read. */
  async #build(why: 'start' | 'schedule' | 'purge'): Promise<boolean> {
    const started = performance.now();
    const { log, metrics } = this.#deps;
    try {
      const docs = await this.#source.everything(this.#stopping.signal);
      const index = new SearchIndex();
      // Indexing 60,000 items takes seconds: requests are answered between slices of it.
      let slice = performance.now();
      for (const doc of docs) {
        index.put(doc);
        if (performance.now() - slice < SLICE_MS) continue;
        await setImmediate();
        slice = performance.now();
      }
      this.#swap(index);
      const ms = Math.round(performance.now() - started);
      metrics.searchUpdates('build', 'ok').inc();
      log.info({ why, documents: index.size, ms, byKind: countKinds(index) }, 'search index built');
      return true;
    } catch (error) {
      if (this.#stopping.signal.aborted) return false;
      metrics.searchUpdates('build', 'error').inc();
      log.warn({ why, err: String(error), serving: this.#index?.size ?? 0 }, 'search index could not be built: the one in use stays');
      return false;
    }
  }

  async #applyChanges(tags: string[]): Promise<void> {
    const index = this.#index;
    // Before the first build, that build will read everything anyway.
    if (!index) return;
    const { log, metrics } = this.#deps;
    try {
      const changes = await this.#source.changes(
        tags,
        (key) => index.get(key),
        () => index.keys(),
        this.#stopping.signal,
      );
      if (changes === 'everything') {
        await this.#build('purge');
        return;
      }
      for (const key of changes.remove) index.remove(key);
      for (const doc of changes.put) index.put(doc);
      if (changes.put.length + changes.remove.length > 0) this.#swap(index);
      metrics.searchUpdates('change', 'ok').inc();
      log.info({ put: changes.put.length, removed: changes.remove.length, documents: index.size }, 'search index changed');
    } catch (error) {
      if (this.#stopping.signal.aborted) return;
      metrics.searchUpdates('change', 'error').inc();
      log.warn({ err: String(error), tags: tags.slice(0, 20) }, 'search index could not be changed: a whole build follows');
      await this.#build('purge');
    }
  }

  /** A new or changed index answers from now on; answers from the old one are forgotten. */
  #swap(index: SearchIndex): void {
    this.#index = index;
    this.#builtNow();
    this.#version++;
    this.#answers.clear();
  }
}

function countKinds(index: SearchIndex): Partial<Record<SearchKind, number>> {
  const counts: Partial<Record<SearchKind, number>> = {};
  for (const key of index.keys()) {
    const kind = index.get(key)!.kind;
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return Object.fromEntries(Object.keys(SEARCH_KINDS).flatMap((k) => (counts[k as SearchKind] ? [[k, counts[k as SearchKind]]] : [])));
}
