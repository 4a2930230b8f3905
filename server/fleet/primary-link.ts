/**
 * A worker's line to its primary (workers.ts; decision 022). Without Redis it is how the workers
 * of one machine tell one truth: the machine's shared tier held by the primary (`tier`), purges
 * passed on to the other workers (`bus`), one readiness for the machine, and one report of every
 * worker for /metrics and /status. A call the primary does not answer within its budget answers
 * undefined, and the worker goes on alone, as it does when Redis is away.
 */
import type { PurgeBus, PurgeMessage } from './purge-message.js';
import {
  isSiteMessage,
  type MachineReadiness,
  type PrimaryCall,
  type ProcessReport,
  type TierMethod,
  type ToPrimary,
  type ToWorker,
} from './cluster-messages.js';
import type { LookOrLock, SharedAnswer, SharedTier } from './shared-tier.js';

/** The longest a call waits for the primary; past it the worker goes on without. */
const CALL_BUDGET_MS = 1_000;

/** The whole service's report, gathered by the primary from every worker. */
export interface ServiceReport extends Omit<ProcessReport, 'metrics'> {
  metrics: ProcessReport['metrics'];
  /** The same metrics as Prometheus text, for /metrics. */
  metricsText: string;
}

interface Pending {
  resolve: (result: unknown) => void;
  timer: NodeJS.Timeout;
}

export class PrimaryLink {
  readonly #pending = new Map<number, Pending>();
  #next = 0;
  #report: (() => Promise<ProcessReport>) | undefined;
  readonly #purgeListeners: ((message: PurgeMessage) => void)[] = [];
  #state: { warm: boolean; busy: boolean } = { warm: false, busy: false };

  constructor() {
    process.on('message', (message: unknown) => {
      if (!isSiteMessage<ToWorker>(message)) return;
      if (message.type === 'site:reply') {
        const pending = this.#pending.get(message.id);
        this.#pending.delete(message.id);
        clearTimeout(pending?.timer);
        pending?.resolve(message.error === undefined ? message.result : undefined);
      } else if (message.type === 'site:report-request') {
        void this.#answerReport(message.id);
      } else if (message.type === 'site:purge') {
        const { type: _type, ...purge } = message;
        for (const listener of this.#purgeListeners) listener(purge);
      }
    });
  }

  /** What this worker reports when the primary gathers the service's report. */
  reportWith(report: () => Promise<ProcessReport>): void {
    this.#report = report;
  }

  listening(url: string): void {
    this.#send({ type: 'site:listening', url });
  }

  /** This worker now holds answers (`warm`) or is too busy to take more (`busy`); sent when it changes. */
  state(change: Partial<{ warm: boolean; busy: boolean }>): void {
    const next = { ...this.#state, ...change };
    if (next.warm === this.#state.warm && next.busy === this.#state.busy) return;
    this.#state = next;
    this.#send({ type: 'site:state', ...next });
  }

  /** A peer not in TRUSTED_PROXIES sent X-Forwarded-For: the primary logs it, once for the machine. */
  forwarder(address: string): void {
    this.#send({ type: 'site:forwarder', address });
  }

  /** The machine's readiness; undefined when the primary does not answer. */
  readiness(): Promise<MachineReadiness | undefined> {
    return this.#call({ op: 'readiness' }) as Promise<MachineReadiness | undefined>;
  }

  /** Every worker's report, merged by the primary; undefined when it does not answer. */
  report(): Promise<ServiceReport | undefined> {
    return this.#call({ op: 'report' }, 5_000) as Promise<ServiceReport | undefined>;
  }

  /** The machine's shared tier, held by the primary (memory-tier.ts). */
  readonly tier: SharedTier = {
    get available() {
      return process.connected;
    },
    generation: () => this.#tier('generation', []) as Promise<number | undefined>,
    put: (...args) => this.#tier('put', args) as Promise<number | undefined>,
    markStale: (...args) => this.#tier('markStale', args) as Promise<number | undefined>,
    lookOrLock: (...args) => this.#tier('lookOrLock', args) as Promise<LookOrLock | undefined>,
    unlock: async (...args) => {
      await this.#tier('unlock', args);
    },
    claimOnce: (...args) => this.#tier('claimOnce', args) as Promise<boolean | undefined>,
    // The wait happens in the primary: it answers when the answer is stored.
    waitFor: (key, after, deadline) =>
      this.#tier('waitFor', [key, after, deadline], Math.max(0, deadline - Date.now()) + CALL_BUDGET_MS) as Promise<
        SharedAnswer | undefined
      >,
  };

  /** How purges reach the machine's other workers: through the primary. */
  readonly bus: PurgeBus = {
    publish: (message) => Promise.resolve(this.#send({ type: 'site:purge', ...message })),
    listen: (apply) => {
      this.#purgeListeners.push(apply);
    },
    close: () => Promise.resolve(),
  };

  #tier(method: TierMethod, args: unknown[], budgetMs = CALL_BUDGET_MS): Promise<unknown> {
    return this.#call({ op: 'tier', method, args }, budgetMs);
  }

  #call(call: PrimaryCall, budgetMs = CALL_BUDGET_MS): Promise<unknown> {
    const id = this.#next++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        resolve(undefined);
      }, budgetMs);
      this.#pending.set(id, { resolve, timer });
      if (!this.#send({ type: 'site:call', id, call })) {
        clearTimeout(timer);
        this.#pending.delete(id);
        resolve(undefined);
      }
    });
  }

  async #answerReport(id: number): Promise<void> {
    if (!this.#report) return;
    this.#send({ type: 'site:report', id, report: await this.#report() });
  }

  /** False when the channel to the primary is closed. */
  #send(message: ToPrimary): boolean {
    if (!process.connected || !process.send) return false;
    process.send(message);
    return true;
  }
}
