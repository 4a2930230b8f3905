/**
 * What a purge is as the fleet passes it from process to process (decision 018; the Purger,
 * admin/purge.ts, applies it), and the tag that purges everything.
 */

/** Every cached thing carries it: purging it purges everything. */
export const ALL_TAG = 'all';

/** A purge as the fleet passes it on: the tags, and the process that was asked for it. */
export interface PurgeMessage {
  from: string;
  tags: readonly string[];
}

/** How a purge reaches the other processes of the fleet. */
export interface PurgeBus {
  /** Tells every process; false when it could not. */
  publish(message: PurgeMessage): Promise<boolean>;
  /** Each purge any process published, once (its own too: the Purger skips those). */
  listen(apply: (message: PurgeMessage) => void): void;
  close(): Promise<void>;
}

/** One process and no fleet: nobody else to tell. */
export function localBus(): PurgeBus {
  return { publish: () => Promise.resolve(true), listen: () => {}, close: () => Promise.resolve() };
}
