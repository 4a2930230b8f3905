/**
 * Fair turns for page renders (docs/decisions/032): each client (its address, or behind a trusted
 * proxy the address the proxy names) renders at most RENDERS_PER_CLIENT pages at once, and its
 * other renders wait their turn in its own lane. A render is a stretch of work the event loop
 * cannot interleave with anything else; a hundred of one client's at once put a hundred such
 * stretches ahead of every other visitor's request, a cached page included. In its lane, one
 * client's flood costs the others at most a few renders' time, however many connections it
 * opens; a client that waits past its budget gets the busy page. A lane holds its turn until its
 * answer is sent, so that a client reading slowly slows only itself.
 */
import type { IncomingMessage } from 'node:http';
import { clientKey, type TrustedProxies } from '../http/trusted-proxies.js';
import { ConcurrencyGate, type GateRefusal } from './concurrency-gate.js';

/** The longest a render waits for its turn in its client's lane. */
const TURN_WAIT_MS = 5_000;

export class RenderLanes {
  readonly #lanes = new Map<string, ConcurrencyGate>();

  constructor(
    /** Renders at once per client; 0 for no limit. */
    private readonly perClient: number,
    /** The most a client's lane holds waiting: no more than its connections. */
    private readonly maxWaiting: number,
    private readonly trusted: TrustedProxies,
    private readonly onRefused: (why: GateRefusal) => void,
  ) {}

  /** Runs `render` in its client's lane; throws a `busy` ContentError when it cannot have a turn. */
  async run(req: IncomingMessage, render: () => Promise<void>): Promise<void> {
    if (this.perClient === 0) return render();
    const client = clientKey(this.trusted.clientOf(req));
    let lane = this.#lanes.get(client);
    if (!lane) {
      lane = new ConcurrencyGate(this.perClient, this.maxWaiting, TURN_WAIT_MS, this.onRefused, { many: 'renders', one: 'render' });
      this.#lanes.set(client, lane);
    }
    try {
      await lane.run(render);
    } finally {
      if (lane.inFlight === 0 && lane.queued === 0) this.#lanes.delete(client);
    }
  }
}
