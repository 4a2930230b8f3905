/**
 * Fetching originals, with the content API's discipline (upstream/upstream-client.ts): one
 * keep-alive undici pool and one circuit breaker per origin, a connect timeout, a whole-answer
 * budget with AbortSignal.timeout, and a size bound checked against Content-Length and against
 * the bytes as they arrive. As many fetches at once per origin as connections, and a bounded
 * queue behind them (the upstream gate): a burst of new images is refused at once (503 `busy`)
 * instead of waiting out its budget in the pool's queue, which would also open the breaker on an
 * origin that did nothing wrong. Redirects are not followed (they could lead anywhere). Failures come
 * back as MediaError values with a `kind` for metrics.
 */
import { Pool, errors as undiciErrors } from 'undici';
import { ContentError } from '../../shared/content-api.js';
import { problem, type ProblemCode } from '../http/problem.js';
import { CircuitBreaker, type CircuitState } from '../reliability/circuit-breaker.js';
import { guardedCall } from '../reliability/guarded-call.js';
import { ConcurrencyGate, type GateRefusal } from '../reliability/concurrency-gate.js';
import type { Validators } from '../upstream/upstream-client.js';

/** Why an original could not be had or used; bounded, for metrics. */
export type MediaFailure =
  | 'unreachable'
  | 'timeout'
  | 'status'
  | 'not_found'
  | 'too_large'
  | 'circuit_open'
  | 'not_allowed_type'
  | 'too_many_pixels'
  | 'undecodable'
  | 'refused_budget';

const CODES: Record<MediaFailure, ProblemCode> = {
  unreachable: 'upstream_unavailable',
  timeout: 'upstream_timeout',
  status: 'upstream_status',
  not_found: 'not_found',
  too_large: 'upstream_invalid',
  circuit_open: 'upstream_unavailable',
  not_allowed_type: 'upstream_invalid',
  too_many_pixels: 'upstream_invalid',
  undecodable: 'upstream_invalid',
  refused_budget: 'too_many_requests',
};

export class MediaError extends ContentError {
  constructor(
    readonly kind: MediaFailure,
    base: ContentError,
  ) {
    super(base.status, base.code, base.message, base.retryAfterS);
  }

  /** What the origin said about this original and stays true for a while (it is kept as the answer). */
  get lasting(): boolean {
    return ['not_found', 'too_large', 'not_allowed_type', 'too_many_pixels', 'undecodable'].includes(this.kind);
  }
}

export const mediaError = (kind: MediaFailure, message: string) => new MediaError(kind, problem(CODES[kind], message));

export interface OriginAnswer {
  /** 304 when the original named by the validators sent has not changed. */
  status: 200 | 304;
  body: Buffer;
  validators: Validators;
}

export interface OriginClientOptions {
  timeoutMs: number;
  maxBytes: number;
  connectTimeoutMs: number;
  /** Keep-alive connections per origin. */
  connections: number;
  breakerThreshold: number;
  breakerCooldownMs: number;
  onCircuitChange?: (origin: string, state: CircuitState) => void;
  /** A fetch refused a slot (the origin's queue was full, or it waited too long). */
  onRefused?: (origin: string, why: GateRefusal) => void;
}

interface Origin {
  pool: Pool;
  breaker: CircuitBreaker;
  gate: ConcurrencyGate;
}

/** Fetches that may wait for a connection to an origin, per connection. */
const QUEUE_PER_CONNECTION = 8;

export class OriginClient {
  /** One per allowed origin, made when first used: the policy bounds how many there are. */
  readonly #origins = new Map<string, Origin>();

  constructor(private readonly options: OriginClientOptions) {}

  #origin(origin: string): Origin {
    let found = this.#origins.get(origin);
    if (!found) {
      const { connections, connectTimeoutMs, timeoutMs, breakerThreshold, breakerCooldownMs, onCircuitChange, onRefused } = this.options;
      found = {
        pool: new Pool(origin, {
          connections,
          connectTimeout: connectTimeoutMs,
          keepAliveTimeout: 30_000,
          // The abort signal is the real budget; these only stop a silent socket.
          headersTimeout: timeoutMs + 1_000,
          bodyTimeout: timeoutMs + 1_000,
        }),
        breaker: new CircuitBreaker(breakerThreshold, breakerCooldownMs, (state) => onCircuitChange?.(origin, state)),
        // The budget of a fetch starts once it has a connection; its wait is bounded by the same budget.
        gate: new ConcurrencyGate(connections, connections * QUEUE_PER_CONNECTION, timeoutMs, (why) => onRefused?.(origin, why), {
          many: 'fetches from a media origin',
          one: 'fetch from a media origin',
        }),
      };
      this.#origins.set(origin, found);
    }
    return found;
  }

  /** GET an original through its origin's breaker; with validators, the origin may answer 304. */
  async get(url: URL, validators: Validators = {}, signal?: AbortSignal): Promise<OriginAnswer> {
    const { pool, breaker, gate } = this.#origin(url.origin);
    return guardedCall(
      breaker,
      gate,
      () => mediaError('circuit_open', `${url.origin} is failing; calls are paused for a cool-down`),
      () => this.#call(pool, breaker, url, validators, signal),
    );
  }

  async #call(
    pool: Pool,
    breaker: CircuitBreaker,
    url: URL,
    validators: Validators,
    signal: AbortSignal | undefined,
  ): Promise<OriginAnswer> {
    try {
      const answer = await this.#send(pool, url, validators, signal);
      breaker.success();
      return answer;
    } catch (error) {
      const kind = (error as MediaError).kind;
      if (kind === 'unreachable' || kind === 'timeout' || kind === 'status') breaker.failure();
      else breaker.success();
      throw error;
    }
  }

  async #send(pool: Pool, url: URL, validators: Validators, signal: AbortSignal | undefined): Promise<OriginAnswer> {
    const { timeoutMs, maxBytes } = this.options;
    const timeout = AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = { accept: 'image/*, video/*, text/vtt;q=0.9, */*;q=0.5' };
    if (validators.etag) headers['if-none-match'] = validators.etag;
    if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
    try {
      const res = await pool.request({
        path: url.pathname + url.search,
        method: 'GET',
        headers,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      const header = (name: string) => (typeof res.headers[name] === 'string' ? res.headers[name] : undefined);
      const sent = { etag: header('etag'), lastModified: header('last-modified') };
      if (res.statusCode === 304 && (validators.etag || validators.lastModified)) {
        await res.body.dump();
        return { status: 304, body: Buffer.alloc(0), validators: sent };
      }
      if (res.statusCode !== 200) {
        await res.body.dump();
        if (res.statusCode === 404 || res.statusCode === 410) throw mediaError('not_found', `${url.origin} has no such file`);
        throw mediaError('status', `${url.origin} answered ${res.statusCode}`);
      }
      const declared = Number(res.headers['content-length']);
      if (declared > maxBytes) {
        res.body.destroy();
        throw mediaError('too_large', `the original is ${declared} bytes, over the limit of ${maxBytes}`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) {
          res.body.destroy();
          throw mediaError('too_large', `the original is over the limit of ${maxBytes} bytes`);
        }
        chunks.push(chunk);
      }
      return { status: 200, body: Buffer.concat(chunks, size), validators: sent };
    } catch (error) {
      if (error instanceof MediaError) throw error;
      if (timeout.aborted) throw mediaError('timeout', `${url.origin} sent no whole answer within ${timeoutMs} ms`);
      if (
        error instanceof undiciErrors.ConnectTimeoutError ||
        error instanceof undiciErrors.HeadersTimeoutError ||
        error instanceof undiciErrors.BodyTimeoutError
      ) {
        throw mediaError('timeout', `${url.origin} did not answer in time`);
      }
      const code = (error as { code?: string } | null)?.code ?? '';
      throw mediaError('unreachable', `${url.origin} cannot be reached (${code || 'network error'})`);
    }
  }

  /**
   * At shutdown the visitors' requests have been answered (the server closed first): a fetch still
   * under way is background work (pictures made ahead), stopped rather than waited for, which
   * could take the whole fetch budget and outlast the shutdown's.
   */
  async close(): Promise<void> {
    await Promise.all([...this.#origins.values()].map((o) => o.pool.destroy()));
  }
}
