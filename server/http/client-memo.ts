/**
 * A memo of what was worked out from something a client sent (a request target, a header), so
 * that each distinct value is worked out once: bounded in bytes, never in entries, since a client
 * chooses how long each key is (docs/decisions/032). A key longer than `MAX_ENTRY_KEY` is never
 * kept: it is worked out each time (it is rare, and at most the front door's MAX_URL_BYTES), and it
 * cannot push out the many short ones that visitors send.
 */
import { LRUCache } from 'lru-cache';

/** What one memo may hold in all. */
const MEMO_BYTES = 1024 * 1024;
/** The longest key kept, in characters. */
const MAX_ENTRY_KEY = 2_048;
/** An entry's own cost besides its key: lru-cache's slots, the value's object. */
const ENTRY_BYTES = 256;

/**
 * An entry costs its key (request targets and headers reach JavaScript as one byte per character),
 * as much again for the value made from it (a canonical address, a parsed target: never longer
 * than what it was made from), and ENTRY_BYTES.
 */
const entrySize = (keyLength: number) => keyLength * 2 + ENTRY_BYTES;

export function clientMemo<V extends NonNullable<unknown>>(): LRUCache<string, V> {
  return new LRUCache<string, V>({
    maxSize: MEMO_BYTES,
    maxEntrySize: entrySize(MAX_ENTRY_KEY),
    sizeCalculation: (_value, key) => entrySize(key.length),
  });
}
