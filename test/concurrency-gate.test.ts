/**
 * The concurrency gate (docs/decisions/020): calls at once, the queue behind them and its budget of
 * waiting, on a fake clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isContentError } from '../shared/content-api.js';
import { ConcurrencyGate, type GateRefusal } from '../server/reliability/concurrency-gate.js';
import { deferred, type Deferred } from './support/deferred.js';

const MAX_WAIT_MS = 500;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function gate(max: number, maxQueue: number) {
  const refusals: GateRefusal[] = [];
  return { g: new ConcurrencyGate(max, maxQueue, MAX_WAIT_MS, (why) => refusals.push(why)), refusals };
}

/** Starts a call through the gate that ends when the test says so; `started` says whether it got its slot. */
function hold(g: ConcurrencyGate) {
  const call: Deferred<string> & { started: boolean; result: Promise<unknown> } = Object.assign(deferred<string>(), {
    started: false,
    result: Promise.resolve<unknown>(undefined),
  });
  call.result = g
    .run(() => {
      call.started = true;
      return call.promise;
    })
    .catch((error: unknown) => error);
  return call;
}

function codeOf(error: unknown): string | undefined {
  return isContentError(error) ? error.code : undefined;
}

describe('concurrency gate', () => {
  it('runs at most `max` calls at once and queues the rest', async () => {
    const { g } = gate(2, 5);
    const calls = [hold(g), hold(g), hold(g)];
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.map((c) => c.started)).toEqual([true, true, false]);
    expect(g.inFlight).toBe(2);
    expect(g.queued).toBe(1);
    calls[0]!.resolve('a');
    await expect(calls[0]!.result).resolves.toBe('a');
    expect(calls[2]!.started).toBe(true);
    // The slot passed straight to the waiting call: still two at once, none queued.
    expect(g.inFlight).toBe(2);
    expect(g.queued).toBe(0);
    calls[1]!.resolve('b');
    calls[2]!.resolve('c');
    await expect(Promise.all(calls.map((c) => c.result))).resolves.toEqual(['a', 'b', 'c']);
    expect(g.inFlight).toBe(0);
  });

  it('admits waiting calls in the order they came', async () => {
    const { g } = gate(1, 3);
    const first = hold(g);
    const waiting = [hold(g), hold(g), hold(g)];
    const order: number[] = [];
    waiting.forEach((c, i) => void c.result.then(() => order.push(i)));
    first.resolve('first');
    for (const c of waiting) {
      await vi.advanceTimersByTimeAsync(0);
      expect(c.started).toBe(true);
      c.resolve('done');
    }
    await Promise.all(waiting.map((c) => c.result));
    expect(order).toEqual([0, 1, 2]);
  });

  it('refuses at once, as busy, when the queue is full', async () => {
    const { g, refusals } = gate(1, 1);
    const running = hold(g);
    const queued = hold(g);
    const refused = hold(g);
    const why = await refused.result;
    expect(codeOf(why)).toBe('busy');
    expect((why as Error).message).toMatch(/too many calls to the content API are waiting/);
    expect(refusals).toEqual(['queue_full']);
    expect(refused.started).toBe(false);
    running.resolve('x');
    queued.resolve('y');
    await expect(queued.result).resolves.toBe('y');
  });

  it('refuses a call that waited its whole budget, and not a moment before', async () => {
    const { g, refusals } = gate(1, 1);
    const running = hold(g);
    const queued = hold(g);
    await vi.advanceTimersByTimeAsync(MAX_WAIT_MS - 1);
    expect(g.queued).toBe(1);
    expect(refusals).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(codeOf(await queued.result)).toBe('busy');
    expect(refusals).toEqual(['waited_too_long']);
    expect(g.queued).toBe(0);
    // The refused call never ran; the running one still holds its slot, and gives it back.
    expect(queued.started).toBe(false);
    expect(g.inFlight).toBe(1);
    running.resolve('x');
    await running.result;
    expect(g.inFlight).toBe(0);
  });

  it('a call admitted from the queue is not refused later by its waiting budget', async () => {
    const { g, refusals } = gate(1, 1);
    const running = hold(g);
    const queued = hold(g);
    await vi.advanceTimersByTimeAsync(MAX_WAIT_MS / 2);
    running.resolve('x');
    await running.result;
    expect(queued.started).toBe(true);
    // Its call takes longer than the queue's budget: the gate does not time it.
    await vi.advanceTimersByTimeAsync(MAX_WAIT_MS * 4);
    queued.resolve('y');
    await expect(queued.result).resolves.toBe('y');
    expect(refusals).toEqual([]);
  });

  it('a call that fails gives its slot back', async () => {
    const { g } = gate(1, 0);
    const failing = hold(g);
    failing.reject(new Error('upstream failed'));
    expect(((await failing.result) as Error).message).toBe('upstream failed');
    expect(g.inFlight).toBe(0);
    const next = hold(g);
    await vi.advanceTimersByTimeAsync(0);
    expect(next.started).toBe(true);
    next.resolve('ok');
    await expect(next.result).resolves.toBe('ok');
  });
});
