/**
 * Whether this process is overloaded, from how late its event loop runs a timer
 * (docs/decisions/020). Past SHED_EVENT_LOOP_LAG_MS the process is `busy`: new renders and misses
 * are refused with 503 and Retry-After while cached answers and pages are still served, and
 * /readyz says "busy" so that a load balancer steers away. One late timer (a garbage collection,
 * one slow render) is not overload: it takes two in a row. It stays busy for a second after the
 * last late pair, so that it does not flap between one slow turn of the loop and the next.
 */
const SAMPLE_MS = 25;
const LATE_IN_A_ROW = 2;
const HOLD_MS = 1_000;

export class EventLoopLoad {
  #busy = false;
  #busyUntil = 0;
  #late = 0;
  #lagMs = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly thresholdMs: number,
    private readonly onChange: (busy: boolean, lagMs: number) => void = () => {},
  ) {}

  /** Starts sampling (nothing when the threshold is 0: shedding is off). */
  start(): void {
    if (this.thresholdMs === 0 || this.#timer) return;
    let expected = performance.now() + SAMPLE_MS;
    this.#timer = setInterval(() => {
      const now = performance.now();
      this.#lagMs = Math.max(0, now - expected);
      expected = now + SAMPLE_MS;
      this.#late = this.#lagMs > this.thresholdMs ? this.#late + 1 : 0;
      if (this.#late >= LATE_IN_A_ROW) this.#busyUntil = now + HOLD_MS;
      const busy = now < this.#busyUntil;
      if (busy !== this.#busy) {
        this.#busy = busy;
        this.onChange(busy, this.#lagMs);
      }
    }, SAMPLE_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  get busy(): boolean {
    return this.#busy;
  }

  /** The last lag measured, in ms. */
  get lagMs(): number {
    return this.#lagMs;
  }
}
