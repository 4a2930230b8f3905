/**
 * Changed pages on their way to one search engine: gathered for a moment (an editing session's
 * events become one request), sent in batches of at most the engine's size, one request at a
 * time, each retried with exponential back-off on a network error, 429 or 5xx (undici's
 * RetryAgent, which also follows Retry-After up to the longest wait). A batch that still fails
 * is logged once, with its engine, size and the last status, and dropped: the sitemap's lastmod
 * tells the engine at its next crawl. Nothing here is awaited by the publish event that fed it.
 */
import { Agent, errors, request, RetryAgent } from 'undici';
import type { Logger } from '../observability/logger.js';
import type { SearchEngine } from './search-engines.js';

export interface PushQueueOptions {
  /** How long addresses gather before a batch goes. */
  gatherMs: number;
  /** Retries of one batch, the first wait, and the longest (which also bounds Retry-After). */
  retries: number;
  firstRetryMs: number;
  longestRetryMs: number;
}

const PUSH_DEFAULTS: PushQueueOptions = { gatherMs: 1_000, retries: 4, firstRetryMs: 1_000, longestRetryMs: 60_000 };
/** One request's budget to connect, and then to answer. */
const CONNECT_TIMEOUT_MS = 5_000;
const ANSWER_TIMEOUT_MS = 15_000;

export class PushQueue {
  readonly #pending = new Set<string>();
  readonly #agent: RetryAgent;
  readonly #closing = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(
    readonly engine: SearchEngine,
    private readonly log: Logger,
    private readonly options: PushQueueOptions = PUSH_DEFAULTS,
  ) {
    const agent = new Agent({
      connect: { timeout: CONNECT_TIMEOUT_MS },
      headersTimeout: ANSWER_TIMEOUT_MS,
      bodyTimeout: ANSWER_TIMEOUT_MS,
    });
    this.#agent = new RetryAgent(agent, {
      methods: ['POST'],
      maxRetries: options.retries,
      minTimeout: options.firstRetryMs,
      maxTimeout: options.longestRetryMs,
      timeoutFactor: 2,
      statusCodes: [429, 500, 502, 503, 504],
    });
  }

  /** Adds absolute addresses; they go with the next batch (an address already waiting is sent once). */
  add(urls: readonly string[]): void {
    if (this.#closing.signal.aborted) return;
    for (const url of urls) this.#pending.add(url);
    this.#schedule();
  }

  /** Addresses waiting to be sent, and whether a batch is under way (for tests and /status). */
  get state(): { pending: number; sending: boolean } {
    return { pending: this.#pending.size, sending: this.#running !== undefined };
  }

  #schedule(): void {
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#drain();
    }, this.options.gatherMs);
  }

  #drain(): void {
    if (this.#running) return;
    this.#running = this.#sendAll().finally(() => {
      this.#running = undefined;
      // Added while the last batch was under way.
      if (this.#pending.size > 0 && !this.#closing.signal.aborted) this.#schedule();
    });
  }

  async #sendAll(): Promise<void> {
    while (this.#pending.size > 0 && !this.#closing.signal.aborted) {
      const batch = [...this.#pending].slice(0, this.engine.batchMax);
      for (const url of batch) this.#pending.delete(url);
      await this.#send(batch);
    }
  }

  async #send(batch: string[]): Promise<void> {
    const { engine, log } = this;
    const facts = { engine: engine.name, urls: batch.length, first: batch[0] };
    try {
      const res = await request(engine.url, {
        method: 'POST',
        dispatcher: this.#agent,
        headers: { 'content-type': engine.contentType },
        body: engine.body(batch),
        signal: this.#closing.signal,
      });
      const answer = await res.body.text();
      if (res.statusCode < 200 || res.statusCode > 299) {
        log.error({ ...facts, status: res.statusCode, answer: answer.slice(0, 200) }, 'search engine refused the changed pages');
        return;
      }
      const remarks = engine.remarks(answer);
      if (remarks) log.warn({ ...facts, status: res.statusCode, remarks }, 'search engine took the changed pages, with remarks');
      else log.info({ ...facts, status: res.statusCode }, 'search engine told of the changed pages');
    } catch (error) {
      if (this.#closing.signal.aborted) return;
      const status = error instanceof errors.RequestRetryError ? error.statusCode : undefined;
      log.error(
        { ...facts, status, err: error instanceof Error ? error.message : String(error), retries: this.options.retries },
        'search engine could not be told of the changed pages',
      );
    }
  }

  /** Stops: a batch under way is abandoned, and what is waiting is dropped (and logged). */
  async close(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.size > 0)
      this.log.warn({ engine: this.engine.name, urls: this.#pending.size }, 'changed pages not sent: the service is stopping');
    this.#pending.clear();
    this.#closing.abort();
    await this.#running;
    await this.#agent.close();
  }
}
