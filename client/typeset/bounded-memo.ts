/** What an entry costs besides its key and value, roughly. */
const ENTRY_BYTES = 96;

/**
 * A memo of what is computed from a text, bounded by bytes (a string's at two a UTF-16 unit), the
 * oldest entries leaving first. Typesetting keeps what it computes for each title: a page draws the
 * same titles render after render, and search snippets vary with the words asked. Not lru-cache, as
 * the server's caches are: typeset.tsx is in every page's first scripts, within their 100 KB budget
 * (docs/decisions/030), and a first-in-first-out bound is all a memo of titles needs.
 */
export function boundedMemo<V>(maxBytes: number, sizeOf: (value: V) => number): (key: string, compute: () => V) => V {
  const kept = new Map<string, V>();
  let bytes = 0;
  const cost = (key: string, value: V) => ENTRY_BYTES + key.length * 2 + sizeOf(value);
  return (key, compute) => {
    const hit = kept.get(key);
    if (hit !== undefined) return hit;
    const value = compute();
    kept.set(key, value);
    bytes += cost(key, value);
    for (const [old, value] of kept) {
      if (bytes <= maxBytes) break;
      kept.delete(old);
      bytes -= cost(old, value);
    }
    return value;
  };
}
