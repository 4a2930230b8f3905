/**
 * Stops hammering a failing dependency (the content API, Redis; docs/decisions/009). After
 * `threshold` consecutive failures the circuit opens: calls fail at once for `cooldownMs`, so
 * the caller goes on without it. Then one probe call is let through; its success closes the
 * circuit, its failure opens it for another cool-down.
 */
export type CircuitState = 'closed' | 'open' | 'half-open';

export class CircuitBreaker {
  #failures = 0;
  #openedAt = 0;
  #state: CircuitState = 'closed';
  #probing = false;

  constructor(
    private readonly threshold: number,
    private readonly cooldownMs: number,
    private readonly onChange: (state: CircuitState) => void = () => {},
  ) {}

  get state(): CircuitState {
    return this.#state;
  }

  /** Whether a call may go to the upstream now; in half-open, only one probe at a time. */
  allow(): boolean {
    if (this.#state === 'closed') return true;
    if (this.#state === 'open' && Date.now() - this.#openedAt >= this.cooldownMs) this.#set('half-open');
    if (this.#state === 'half-open' && !this.#probing) {
      this.#probing = true;
      return true;
    }
    return false;
  }

  success(): void {
    this.#failures = 0;
    this.#probing = false;
    if (this.#state !== 'closed') this.#set('closed');
  }

  /** A call allowed but never made (it found no slot): a probe's mark is let go, for the next call. */
  abandon(): void {
    this.#probing = false;
  }

  failure(): void {
    this.#probing = false;
    this.#failures++;
    if (this.#state === 'half-open' || (this.#state === 'closed' && this.#failures >= this.threshold)) {
      this.#openedAt = Date.now();
      this.#set('open');
    }
  }

  #set(state: CircuitState): void {
    this.#state = state;
    this.onChange(state);
  }
}
