/**
 * The queries that found nothing, counted, for editors (/status): what patients look for that the
 * content lacks. Bounded: at most QUERIES_KEPT distinct queries (each at most 64 characters) are
 * counted; past it, the least counted one makes room, so a flood of random queries cannot crowd
 * out what many visitors asked.
 */

const QUERIES_KEPT = 1_000;

export class ZeroResults {
  readonly #counts = new Map<string, number>();

  note(query: string): void {
    const counts = this.#counts;
    const known = counts.get(query);
    if (known !== undefined) {
      counts.set(query, known + 1);
      return;
    }
    if (counts.size >= QUERIES_KEPT) {
      // The oldest of the least counted goes (Map order is insertion order).
      let least: string | undefined;
      let fewest = Infinity;
      for (const [q, n] of counts) {
        if (n < fewest) [least, fewest] = [q, n];
        if (n === 1) break;
      }
      counts.delete(least!);
    }
    counts.set(query, 1);
  }

  /** The most frequent, most first. */
  top(n: number): [query: string, count: number][] {
    return [...this.#counts].sort((a, b) => b[1] - a[1]).slice(0, n);
  }
}
