/**
 * Fair turns between clients for every request (docs/decisions/032). The event loop answers the
 * requests that arrived together one after another; a client holding a hundred connections puts
 * a hundred answers ahead of another client's, each cheap, together tens of milliseconds. Here a
 * client (its address, or behind a trusted proxy the address the proxy names) starts at most
 * REQUESTS_PER_TURN requests in one turn of the event loop; the rest wait for the next turns,
 * where every waiting client starts its share in turn. A client alone is slowed by nothing but a
 * turn's change; a client among others gets its share, however many connections it opens.
 */
import type { IncomingMessage } from 'node:http';
import { clientKey, type TrustedProxies } from './trusted-proxies.js';

export class FairTurns {
  /** Requests started in this turn, by client. */
  readonly #started = new Map<string, number>();
  /** Requests waiting for a later turn, by client, each client's in order. */
  readonly #waiting = new Map<string, (() => void)[]>();
  #scheduled = false;

  constructor(
    /** Requests one client starts in one turn; 0 for no limit. */
    private readonly perTurn: number,
    private readonly trusted: TrustedProxies,
  ) {}

  /** Starts a request now, or in a later turn once its client has had its share of this one. */
  take(req: IncomingMessage, start: () => void): void {
    if (this.perTurn === 0) return start();
    const client = clientKey(this.trusted.clientOf(req));
    const queue = this.#waiting.get(client);
    const started = this.#started.get(client) ?? 0;
    this.#schedule();
    if (queue) queue.push(start);
    else if (started >= this.perTurn) this.#waiting.set(client, [start]);
    else {
      this.#started.set(client, started + 1);
      start();
    }
  }

  /** The end of a turn (after the requests that arrived in it): the counts start afresh. */
  #schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#nextTurn());
  }

  #nextTurn(): void {
    this.#scheduled = false;
    this.#started.clear();
    // Each waiting client starts its share, in turn; what it starts counts against the next turn too.
    for (const [client, queue] of [...this.#waiting]) {
      const share = queue.splice(0, this.perTurn);
      if (queue.length === 0) this.#waiting.delete(client);
      this.#started.set(client, share.length);
      for (const start of share) start();
    }
    if (this.#started.size > 0) this.#schedule();
  }
}
