/**
 * At most so many at once, and a bounded queue behind them (docs/decisions/020): whatever finds
 * the queue full, or waits longer than its budget, fails at once with a 503 the caller can retry,
 * instead of piling up until this process or what it calls falls over. Calls to the content API
 * pass one (the upstream gate: its wait never counts against the breaker, and a call's own timeout
 * starts only once it has a slot); so do each client's renders, image transforms and analyses,
 * originals in hand and calls to media origins.
 */
import { problem } from '../http/problem.js';

export type GateRefusal = 'queue_full' | 'waited_too_long';

interface Waiter {
  admit: () => void;
  refuse: (why: GateRefusal) => void;
}

export class ConcurrencyGate {
  #inFlight = 0;
  readonly #queue: Waiter[] = [];

  constructor(
    private readonly max: number,
    private readonly maxQueue: number,
    private readonly maxWaitMs: number,
    private readonly onRefused: (why: GateRefusal) => void = () => {},
    /** What waits here, for the refusal's message (the media transforms use a gate too). */
    private readonly what = { many: 'calls to the content API', one: 'call to the content API' },
  ) {}

  get inFlight(): number {
    return this.#inFlight;
  }

  get queued(): number {
    return this.#queue.length;
  }

  /** Runs `call` once a slot is free; throws a `busy` ContentError when it cannot have one. */
  async run<T>(call: () => Promise<T>): Promise<T> {
    await this.#acquire();
    try {
      return await call();
    } finally {
      this.#release();
    }
  }

  #acquire(): Promise<void> {
    if (this.#inFlight < this.max) {
      this.#inFlight++;
      return Promise.resolve();
    }
    if (this.#queue.length >= this.maxQueue) return Promise.reject(this.#refusal('queue_full'));
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(timer);
          resolve();
        },
        refuse: (why) => reject(this.#refusal(why)),
      };
      const timer = setTimeout(() => {
        this.#queue.splice(this.#queue.indexOf(waiter), 1);
        waiter.refuse('waited_too_long');
      }, this.maxWaitMs);
      this.#queue.push(waiter);
    });
  }

  #release(): void {
    const next = this.#queue.shift();
    // The slot passes straight to the next in line.
    if (next) next.admit();
    else this.#inFlight--;
  }

  #refusal(why: GateRefusal) {
    this.onRefused(why);
    const message = why === 'queue_full' ? `too many ${this.what.many} are waiting` : `no ${this.what.one} could be made in time`;
    return problem('busy', `${message}; try again shortly`, 1);
  }
}
