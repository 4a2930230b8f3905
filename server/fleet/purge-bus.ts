/**
 * How a purge reaches every process of a fleet sharing Redis: a Redis stream that each process
 * reads from where it last read (decision 018). A process cut off from Redis reads the purges
 * it missed when it is back: nothing depends on a broadcast arriving. The stream keeps the last
 * ten thousand; a process that finds it missed more than that purges everything. (A purge that
 * could not be written at all is the Purger's to write again; pub/sub would drop what was sent
 * while a process was away.)
 */
import type { Logger } from '../observability/logger.js';
import { ALL_TAG, type PurgeBus, type PurgeMessage } from './purge-message.js';
import type { RedisLink } from '../reliability/redis-link.js';

const KEEP = 10_000;
const BLOCK_MS = 2_000;
const RETRY_MS = 250;

/** What XREAD answers: per stream, its new messages (none when the wait ended first). */
type StreamRead = { name: string; messages: { id: string; message: Record<string, string> }[] }[] | null;
const streamRead = (answer: unknown) => answer as StreamRead;

/** Stream ids are `<ms>-<seq>`; true when `a` comes after `b`. */
function after(a: string, b: string): boolean {
  const [am, as] = a.split('-').map(Number) as [number, number];
  const [bm, bs] = b.split('-').map(Number) as [number, number];
  return am > bm || (am === bm && as > bs);
}

export function redisBus(link: RedisLink, log: Logger, prefix = 'site:'): PurgeBus {
  const key = prefix + 'purges';
  // Blocking reads need a connection of their own, with no time limit on a written command.
  const reader = link.client.duplicate({ commandOptions: { timeout: 0 } });
  reader.on('error', () => {
    // The link logs Redis going and coming back; the reader retries below.
  });
  let lastId: string | undefined;
  let stopped = false;
  let running: Promise<void> | undefined;

  async function read(apply: (message: PurgeMessage) => void): Promise<void> {
    let resumed = false;
    while (!stopped) {
      try {
        if (!reader.isOpen) await reader.connect();
        // From the last purge there is when this process first reads: it has nothing older to purge.
        lastId ??= ((await reader.xRevRange(key, '+', '-', { COUNT: 1 })) ?? [])[0]?.id ?? '0-0';
        if (resumed) {
          resumed = false;
          // Older purges than this process has read are gone (trimmed, or Redis restarted empty).
          const oldest = (await reader.xRange(key, '-', '+', { COUNT: 1 }))?.[0]?.id;
          if (oldest && lastId !== '0-0' && after(oldest, lastId)) {
            log.warn({ lastId, oldest }, 'purges were missed while Redis was away: purging everything here');
            apply({ from: '', tags: [ALL_TAG] });
          }
        }
        const streams = streamRead(await reader.xRead({ key, id: lastId }, { BLOCK: BLOCK_MS, COUNT: 100 }));
        for (const stream of streams ?? []) {
          for (const message of stream.messages) {
            lastId = message.id;
            try {
              apply({ from: message.message.from ?? '', tags: JSON.parse(message.message.tags ?? '[]') as string[] });
            } catch (error) {
              log.error({ err: error, id: message.id }, 'a purge message could not be read');
            }
          }
        }
      } catch (error) {
        if (stopped) break;
        resumed = true;
        // Redis going away is logged by the link; anything else is worth a line of its own.
        if (link.available) log.warn({ err: error }, 'reading purges failed; retrying');
        await new Promise((r) => setTimeout(r, RETRY_MS));
      }
    }
  }

  return {
    async publish({ from, tags }) {
      const id = await link.call('purge-publish', (c) =>
        c.xAdd(key, '*', { from, tags: JSON.stringify(tags) }, { TRIM: { strategy: 'MAXLEN', strategyModifier: '~', threshold: KEEP } }),
      );
      return id !== undefined;
    },
    listen(apply) {
      running = read(apply);
    },
    async close() {
      stopped = true;
      if (reader.isOpen) reader.destroy();
      await running;
    },
  };
}
