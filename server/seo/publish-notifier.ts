/**
 * A publish tells search engines: after a publish event has purged the caches, the pages it
 * changed (changed-pages.ts) are queued, as absolute addresses on PUBLIC_ORIGIN, for every engine
 * configured (search-engines.ts). The event's answer never waits for any of it.
 */
import type { ContentApi } from '../../shared/content-api.js';
import type { PublishEvent } from '../admin/publish-events.js';
import type { Logger } from '../observability/logger.js';
import { changedPages } from './changed-pages.js';
import { PushQueue, type PushQueueOptions } from './push-queue.js';
import type { SearchEngine } from './search-engines.js';

export class PublishNotifier {
  readonly #queues: PushQueue[];

  constructor(
    engines: readonly SearchEngine[],
    private readonly api: ContentApi,
    private readonly origin: string,
    private readonly log: Logger,
    options?: PushQueueOptions,
  ) {
    this.#queues = engines.map((engine) => new PushQueue(engine, log, options));
  }

  /** True when at least one engine is configured. */
  get enabled(): boolean {
    return this.#queues.length > 0;
  }

  /** Queues the pages `event` changed; returns at once. */
  announce(event: PublishEvent): void {
    if (!this.enabled) return;
    changedPages(event, this.api).then(
      (paths) => {
        const urls = paths.map((path) => this.origin + path);
        for (const queue of this.#queues) queue.add(urls);
      },
      (error: unknown) => this.log.error({ err: error, id: event.id }, 'the pages a publish event changed could not be worked out'),
    );
  }

  async close(): Promise<void> {
    await Promise.all(this.#queues.map((q) => q.close()));
  }
}
