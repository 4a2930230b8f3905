/**
 * Stops hammering a failing dependency (the content API, Redis; docs/decisions/009). After
 * `threshold` consecutive failures the circuit opens: calls fail at once for `cooldownMs`, so
 * the caller goes on without it. Then one probe call is let through; its success closes the
 * circuit, its failure opens it for another cool-down. A probe that is let through but never
 * made (guarded-call.ts: refused a slot) gives its turn back, so that the circuit is never
 * half-open with no probe in flight.
 */
export type CircuitState = 'closed' | 'open' | 'half-open';

/** A call the breaker let through: any call while closed, or the half-open circuit's one probe. */
export interface Permit {
  readonly probe: boolean;
}

const CLOSED_PERMIT: Permit = { probe: false };

export class CircuitBreaker {
  #failures = 0;
  #openedAt = 0;
  #state: CircuitState = 'closed';
  /** The probe under way in half-open, if any. */
  #probe: Permit | undefined;

  constructor(
    private readonly threshold: number,
    private readonly cooldownMs: number,
    private readonly onChange: (state: CircuitState) => void = () => {},
  ) {}

  get state(): CircuitState {
    return this.#state;
  }

  /** Whether calls fail at once now (open, within its cool-down): whoever asks makes no call. */
  get pausing(): boolean {
    return this.#state === 'open' && Date.now() - this.#openedAt < this.cooldownMs;
  }

  /** Whether a call may go to the upstream now; in half-open, only one probe at a time. */
  allow(): boolean {
    return this.permit() !== undefined;
  }

  /** As allow(), with the permit to give back if the call is never made (notMade). */
  permit(): Permit | undefined {
    if (this.#state === 'closed') return CLOSED_PERMIT;
    if (this.#state === 'open' && Date.now() - this.#openedAt >= this.cooldownMs) this.#set('half-open');
    if (this.#state === 'half-open' && !this.#probe) {
      this.#probe = { probe: true };
      return this.#probe;
    }
    return undefined;
  }

  /** A call let through but never made: if it was the probe, the next call may probe instead. */
  notMade(permit: Permit): void {
    if (permit === this.#probe) this.#probe = undefined;
  }

  success(): void {
    this.#failures = 0;
    this.#probe = undefined;
    if (this.#state !== 'closed') this.#set('closed');
  }

  failure(): void {
    this.#probe = undefined;
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
