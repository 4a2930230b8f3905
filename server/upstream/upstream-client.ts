/**
 * The one way to the content API: a keep-alive undici pool with a connect timeout, a whole
 * answer budget (AbortSignal.timeout: undici's own timers tick at about one second) and a cap
 * on the body's size. Failures come back as ContentError values with a `kind` for metrics.
 * Tracing needs nothing here: undici publishes each request on its diagnostics channels.
 */
import { Pool, errors as undiciErrors } from 'undici';
import { ContentError } from '../../shared/content-api.js';
import type { Config } from '../settings/config.js';
import { problem } from '../http/problem.js';
import { CircuitBreaker, type CircuitState } from '../reliability/circuit-breaker.js';
import { guardedCall } from '../reliability/guarded-call.js';
import type { Registry } from 'prom-client';
import { gaugeOnScrape } from '../observability/metrics.js';
import { ConcurrencyGate, type GateRefusal } from '../reliability/concurrency-gate.js';

export type UpstreamFailure = 'unreachable' | 'timeout' | 'status' | 'too_large' | 'invalid' | 'circuit_open';

export class UpstreamError extends ContentError {
  constructor(
    readonly kind: UpstreamFailure,
    base: ContentError,
  ) {
    super(base.status, base.code, base.message);
  }
}

/** What the content API sent to name its answer's version, for a conditional request. */
export interface Validators {
  etag?: string | undefined;
  lastModified?: string | undefined;
}

export interface UpstreamAnswer {
  /** 304 when the answer named by the validators sent has not changed. */
  status: number;
  body: Buffer;
  validators: Validators;
}

export type UpstreamOptions = Pick<
  Config,
  | 'UPSTREAM_CONNECT_TIMEOUT_MS'
  | 'UPSTREAM_TIMEOUT_MS'
  | 'UPSTREAM_MAX_BYTES'
  | 'UPSTREAM_CONNECTIONS'
  | 'UPSTREAM_QUEUE'
  | 'UPSTREAM_BREAKER_THRESHOLD'
  | 'UPSTREAM_BREAKER_COOLDOWN_MS'
> & {
  url: string;
  onCircuitChange?: (state: CircuitState) => void;
  /** A call refused a slot (the queue was full, or it waited too long). */
  onRefused?: (why: GateRefusal) => void;
  /** Where the gate's gauges are registered (the service's metrics). */
  registry?: Registry;
};

export class UpstreamClient {
  readonly #pool: Pool;
  readonly #basePath: string;
  readonly #breaker: CircuitBreaker;
  readonly gate: ConcurrencyGate;

  constructor(readonly options: UpstreamOptions) {
    const url = new URL(options.url);
    this.#basePath = url.pathname.replace(/\/+$/, '');
    this.#breaker = new CircuitBreaker(options.UPSTREAM_BREAKER_THRESHOLD, options.UPSTREAM_BREAKER_COOLDOWN_MS, options.onCircuitChange);
    // As many calls at once as connections: the pool itself then never queues.
    this.gate = new ConcurrencyGate(options.UPSTREAM_CONNECTIONS, options.UPSTREAM_QUEUE, options.UPSTREAM_TIMEOUT_MS, options.onRefused);
    if (options.registry) {
      const { registry } = options;
      gaugeOnScrape(registry, { name: 'upstream_in_flight', help: 'Calls to the content API under way now.' }, () => this.gate.inFlight);
      gaugeOnScrape(
        registry,
        { name: 'upstream_queued', help: 'Calls to the content API waiting for a free slot now.' },
        () => this.gate.queued,
      );
    }
    this.#pool = new Pool(url.origin, {
      connections: options.UPSTREAM_CONNECTIONS,
      connectTimeout: options.UPSTREAM_CONNECT_TIMEOUT_MS,
      keepAliveTimeout: 30_000,
      // The abort signal below is the real budget; these only stop a silent socket.
      headersTimeout: options.UPSTREAM_TIMEOUT_MS + 1_000,
      bodyTimeout: options.UPSTREAM_TIMEOUT_MS + 1_000,
    });
  }

  get circuit(): CircuitState {
    return this.#breaker.state;
  }

  /** Whether calls fail at once now, the circuit open: a miss makes no call. */
  get paused(): boolean {
    return this.#breaker.pausing;
  }

  /**
   * GET a path (with its query) through the circuit breaker; with the validators of an answer
   * already held, the content API may say it has not changed (304) instead of sending it again.
   */
  async get(pathAndQuery: string, validators: Validators = {}): Promise<UpstreamAnswer> {
    return guardedCall(
      this.#breaker,
      this.gate,
      () => upstreamError('circuit_open', 'the content API is failing; calls are paused for a cool-down'),
      () => this.#call(pathAndQuery, validators),
    );
  }

  async #call(pathAndQuery: string, validators: Validators): Promise<UpstreamAnswer> {
    try {
      const answer = await this.#request(pathAndQuery, validators);
      if (answer.status >= 500) this.#breaker.failure();
      else this.#breaker.success();
      return answer;
    } catch (error) {
      const kind = (error as UpstreamError).kind;
      if (kind === 'unreachable' || kind === 'timeout') this.#breaker.failure();
      else this.#breaker.success();
      throw error;
    }
  }

  /** One GET, with the validators held. */
  #request(pathAndQuery: string, validators: Validators): Promise<UpstreamAnswer> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (validators.etag) headers['if-none-match'] = validators.etag;
    if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
    return this.#send(pathAndQuery, headers);
  }

  /**
   * Sends the GET, reading at most maxBytes of the answer. Nothing of ours cancels a call once made
   * (docs/decisions/033): it ends with an answer or its time budget, so that every failure counted
   * here is the content API's.
   */
  async #send(pathAndQuery: string, headers: Record<string, string>): Promise<UpstreamAnswer> {
    const timeout = AbortSignal.timeout(this.options.UPSTREAM_TIMEOUT_MS);
    try {
      const res = await this.#pool.request({ path: this.#basePath + pathAndQuery, method: 'GET', headers, signal: timeout });
      const header = (name: string) => (typeof res.headers[name] === 'string' ? res.headers[name] : undefined);
      const sent = { etag: header('etag'), lastModified: header('last-modified') };
      if (res.statusCode === 304) {
        res.body.resume();
        return { status: 304, body: Buffer.alloc(0), validators: sent };
      }
      const declared = Number(res.headers['content-length']);
      if (declared > this.options.UPSTREAM_MAX_BYTES) {
        res.body.destroy();
        throw upstreamError('too_large', `upstream answer of ${declared} bytes is over the limit`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > this.options.UPSTREAM_MAX_BYTES) {
          res.body.destroy();
          throw upstreamError('too_large', `upstream answer is over ${this.options.UPSTREAM_MAX_BYTES} bytes`);
        }
        chunks.push(chunk);
      }
      return { status: res.statusCode, body: Buffer.concat(chunks, size), validators: sent };
    } catch (error) {
      if (error instanceof UpstreamError) throw error;
      if (timeout.aborted) throw upstreamError('timeout', `no answer within ${this.options.UPSTREAM_TIMEOUT_MS} ms`);
      throw classify(error);
    }
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}

export function upstreamError(kind: UpstreamFailure, message: string): UpstreamError {
  const code = {
    unreachable: 'upstream_unavailable',
    timeout: 'upstream_timeout',
    status: 'upstream_status',
    too_large: 'upstream_invalid',
    invalid: 'upstream_invalid',
    circuit_open: 'upstream_unavailable',
  } as const;
  return new UpstreamError(kind, problem(code[kind], message));
}

function classify(error: unknown): UpstreamError {
  if (
    error instanceof undiciErrors.ConnectTimeoutError ||
    error instanceof undiciErrors.HeadersTimeoutError ||
    error instanceof undiciErrors.BodyTimeoutError
  ) {
    return upstreamError('timeout', 'the content API did not answer in time');
  }
  const code = (error as { code?: string } | null)?.code ?? '';
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET') {
    return upstreamError('invalid', 'the content API closed the connection mid-answer');
  }
  return upstreamError('unreachable', `the content API cannot be reached (${code || 'network error'})`);
}
