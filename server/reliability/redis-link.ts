/**
 * The service's one connection to Redis, through which the fleet shares answers, locks and
 * purges (docs/decisions/016). Redis is never a single point of failure: every call has a tight
 * time budget, nothing waits in a queue while Redis is away (the call fails at once), and after
 * repeated failures a breaker skips Redis for a cool-down. A caller whose call fails gets
 * `undefined` and goes on without Redis. The connection comes back by itself; the log says when
 * Redis goes and when it returns, once each.
 */
import { createClient } from 'redis';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import { CircuitBreaker } from './circuit-breaker.js';

export type RedisClient = ReturnType<typeof createClient>;

export interface RedisLinkOptions {
  url: string;
  /** The longest any call may take before the caller goes on without it. */
  budgetMs: number;
  log: Logger;
  metrics: Metrics;
}

const BREAKER_THRESHOLD = 3;
const BREAKER_COOLDOWN_MS = 1_000;
/** How many budgets a call may stay in node-redis's queue before the client drops it. */
const QUEUE_TIMEOUT_BUDGETS = 4;

export class RedisLink {
  readonly client: RedisClient;
  readonly #budgetMs: number;
  readonly #log: Logger;
  readonly #metrics: Metrics;
  readonly #breaker: CircuitBreaker;
  #up = false;
  #closing = false;

  constructor(options: RedisLinkOptions) {
    this.#budgetMs = options.budgetMs;
    this.#log = options.log;
    this.#metrics = options.metrics;
    this.#breaker = new CircuitBreaker(BREAKER_THRESHOLD, BREAKER_COOLDOWN_MS);
    this.client = createClient({
      url: options.url,
      // A call made while the connection is down fails at once instead of waiting in memory.
      disableOfflineQueue: true,
      commandsQueueMaxLength: 1_000,
      socket: {
        connectTimeout: Math.max(200, options.budgetMs * 4),
        // Try again soon, then every half second at most: Redis is back within a moment of its return.
        reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 500),
      },
      // node-redis's own limit only empties its queue of calls Redis never answers; the budget is
      // call()'s, and a timer of the same length would fire beside it, before a late answer is read.
      commandOptions: { timeout: options.budgetMs * QUEUE_TIMEOUT_BUDGETS },
    });
    this.client.on('ready', () => this.#state(true));
    this.client.on('end', () => this.#state(false));
    this.client.on('error', (error: Error) => {
      // The client retries on its own; the change of state is what gets logged.
      if (this.#up) this.#log.warn({ err: error.message }, 'redis connection lost');
      this.#state(false);
    });
    options.metrics.redisUp.set(0);
  }

  /** Connects in the background: the service serves at once, with or without Redis. */
  start(): void {
    this.client.connect().catch((error: unknown) => {
      if (!this.#closing) this.#log.warn({ err: String(error) }, 'redis not reachable; going on without it until it is');
    });
  }

  /** Connected: calls are worth making (each still fails fast while the breaker is open). */
  get available(): boolean {
    return this.#up;
  }

  /**
   * One call to Redis within the budget; undefined when Redis is down, slow or failing (the
   * caller goes on without it). `op` names the call in metrics.
   */
  async call<T>(op: string, run: (client: RedisClient) => Promise<T>): Promise<T | undefined> {
    if (!this.#up || !this.#breaker.allow()) {
      this.#metrics.redisErrors(op, 'unavailable').inc();
      return undefined;
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      const result = await Promise.race([
        run(this.client),
        new Promise<never>((_resolve, reject) => {
          // Judged by Redis, not by this process's lag: a timer that fires late, the event loop busy
          // (a render), waits one more turn, in which Node reads the sockets before it runs
          // immediates, so an answer Redis already sent is taken rather than counted a timeout.
          timer = setTimeout(() => setImmediate(() => reject(new Error(`no answer within ${this.#budgetMs} ms`))), this.#budgetMs);
        }),
      ]);
      this.#breaker.success();
      return result;
    } catch (error) {
      this.#breaker.failure();
      this.#metrics.redisErrors(op, /within/.test(String(error)) ? 'timeout' : 'error').inc();
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    this.#closing = true;
    if (this.client.isOpen) await this.client.close().catch(() => this.client.destroy());
  }

  #state(up: boolean): void {
    if (up === this.#up) return;
    this.#up = up;
    this.#metrics.redisUp.set(up ? 1 : 0);
    // A fresh connection starts with a clean record.
    if (up) this.#breaker.success();
    if (up) this.#log.info('redis connected: the fleet shares its cache');
    else if (!this.#closing) this.#log.warn('redis unavailable: each process goes on with its own cache and the content API');
  }
}
