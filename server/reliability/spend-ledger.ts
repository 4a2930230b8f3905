/**
 * Who spent the budget of misses (miss-limiter.ts): points per client in the current window and
 * the one before, so that /status can list the clients that cost the content API the most.
 * Bounded: past `max` clients in a window, new ones are not recorded (a flood of addresses is
 * shown by the rate-limit metrics, not by an ever-growing list).
 */
export class SpendLedger {
  #current = new Map<string, number>();
  #last = new Map<string, number>();
  #windowStart = 0;

  constructor(
    private readonly windowMs: number,
    private readonly max = 10_000,
  ) {}

  spent(client: string): void {
    this.#roll();
    const points = this.#current.get(client);
    if (points !== undefined) this.#current.set(client, points + 1);
    else if (this.#current.size < this.max) this.#current.set(client, 1);
  }

  /** The clients that spent most in this window and the last, most first. */
  top(n = 10): [client: string, points: number][] {
    this.#roll();
    const sum = new Map(this.#last);
    for (const [client, points] of this.#current) sum.set(client, (sum.get(client) ?? 0) + points);
    return [...sum].sort((a, b) => b[1] - a[1]).slice(0, n);
  }

  #roll(): void {
    const now = Date.now();
    const start = now - (now % this.windowMs);
    if (start === this.#windowStart) return;
    this.#last = start - this.#windowStart === this.windowMs ? this.#current : new Map<string, number>();
    this.#current = new Map();
    this.#windowStart = start;
  }
}
