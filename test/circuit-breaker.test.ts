/**
 * The circuit breaker (docs/decisions/009) and its composition with the upstream gate, on a fake
 * clock: every window is crossed by moving the clock, never by waiting.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isContentError } from '../shared/content-api.js';
import { CircuitBreaker, type CircuitState } from '../server/reliability/circuit-breaker.js';
import { guardedCall } from '../server/reliability/guarded-call.js';
import { ConcurrencyGate } from '../server/reliability/concurrency-gate.js';
import { deferred } from './support/deferred.js';

const COOLDOWN_MS = 1_000;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

function breaker(threshold = 3) {
  const changes: CircuitState[] = [];
  const b = new CircuitBreaker(threshold, COOLDOWN_MS, (s) => changes.push(s));
  return { b, changes };
}

describe('circuit breaker', () => {
  it('opens after the threshold of failures in a row, and a success in between starts the count again', () => {
    const { b, changes } = breaker(3);
    b.failure();
    b.failure();
    b.success();
    b.failure();
    b.failure();
    expect(b.state).toBe('closed');
    expect(b.allow()).toBe(true);
    b.failure();
    expect(b.state).toBe('open');
    expect(changes).toEqual(['open']);
  });

  it('refuses every call for the whole cool-down, then lets exactly one probe through', () => {
    const { b, changes } = breaker(1);
    b.failure();
    vi.advanceTimersByTime(COOLDOWN_MS - 1);
    expect(b.allow()).toBe(false);
    expect(b.state).toBe('open');
    vi.advanceTimersByTime(1);
    expect(b.allow()).toBe(true);
    expect(b.state).toBe('half-open');
    // The probe is under way: nobody else goes.
    expect(b.allow()).toBe(false);
    expect(b.allow()).toBe(false);
    expect(changes).toEqual(['open', 'half-open']);
  });

  it('closes when the probe succeeds', () => {
    const { b, changes } = breaker(1);
    b.failure();
    vi.advanceTimersByTime(COOLDOWN_MS);
    expect(b.allow()).toBe(true);
    b.success();
    expect(b.state).toBe('closed');
    expect(b.allow()).toBe(true);
    expect(b.allow()).toBe(true);
    expect(changes).toEqual(['open', 'half-open', 'closed']);
  });

  it('opens for another whole cool-down when the probe fails', () => {
    const { b, changes } = breaker(5);
    for (let i = 0; i < 5; i++) b.failure();
    vi.advanceTimersByTime(COOLDOWN_MS);
    expect(b.allow()).toBe(true);
    // One failure is enough in half-open, whatever the threshold.
    b.failure();
    expect(b.state).toBe('open');
    vi.advanceTimersByTime(COOLDOWN_MS - 1);
    expect(b.allow()).toBe(false);
    vi.advanceTimersByTime(1);
    expect(b.allow()).toBe(true);
    expect(changes).toEqual(['open', 'half-open', 'open', 'half-open']);
  });

  it('a failure of a call that began before the circuit opened does not restart the cool-down', () => {
    const { b } = breaker(1);
    b.failure();
    vi.advanceTimersByTime(COOLDOWN_MS / 2);
    // A slow call allowed while the circuit was closed ends now, failing.
    b.failure();
    vi.advanceTimersByTime(COOLDOWN_MS / 2);
    expect(b.allow()).toBe(true);
    expect(b.state).toBe('half-open');
  });
});

describe('permits', () => {
  it('a call let through while closed and never made does not free the probe of a later half-open circuit', () => {
    const { b } = breaker(1);
    const early = b.permit();
    expect(early?.probe).toBe(false);
    b.failure();
    vi.advanceTimersByTime(COOLDOWN_MS);
    const probe = b.permit();
    expect(probe?.probe).toBe(true);
    // The early call is refused its slot only now: the probe in flight keeps its turn.
    b.notMade(early!);
    expect(b.allow()).toBe(false);
    // The probe itself, never made, gives its turn to the next call.
    b.notMade(probe!);
    expect(b.allow()).toBe(true);
  });
});

describe('a call through the breaker and the gate', () => {
  const openError = () => new Error('circuit open');

  it('an open circuit refuses at once without taking a place in the queue', async () => {
    const { b } = breaker(1);
    const gate = new ConcurrencyGate(1, 1, 500);
    b.failure();
    const call = vi.fn(() => Promise.resolve('called'));
    await expect(guardedCall(b, gate, openError, call)).rejects.toThrow('circuit open');
    expect(call).not.toHaveBeenCalled();
    expect(gate.queued).toBe(0);
    expect(gate.inFlight).toBe(0);
  });

  it('a probe refused a slot gives its turn back: the next call may probe', async () => {
    const { b } = breaker(1);
    // Two slots and a queue of one.
    const gate = new ConcurrencyGate(2, 1, 500);
    const hanging = deferred<string>();
    const failing = deferred<string>();
    const queued = deferred<string>();
    const a = guardedCall(b, gate, openError, () => hanging.promise);
    const f = guardedCall(b, gate, openError, () => failing.promise);
    const q = guardedCall(b, gate, openError, () => queued.promise);
    expect(gate.inFlight).toBe(2);
    expect(gate.queued).toBe(1);
    // One call fails: the circuit opens, and its slot passes to the call that was queued.
    failing.reject(new Error('upstream failed'));
    await expect(f).rejects.toThrow('upstream failed');
    b.failure();
    expect(b.state).toBe('open');
    await vi.advanceTimersByTimeAsync(0);
    expect(gate.inFlight).toBe(2);
    expect(gate.queued).toBe(0);

    // After the cool-down the probe is allowed, but both slots are still held: it waits in the
    // queue past the gate's budget and is refused, never having reached the upstream.
    vi.advanceTimersByTime(COOLDOWN_MS);
    const probeCall = vi.fn(() => Promise.resolve('probed'));
    const probe = guardedCall(b, gate, openError, probeCall);
    const refused = probe.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(500);
    const why = await refused;
    expect(isContentError(why) && why.code).toBe('busy');
    expect(probeCall).not.toHaveBeenCalled();
    expect(b.state).toBe('half-open');

    // No probe is in flight, so the next call is the probe (it waits for a slot, not for the breaker).
    const next = guardedCall(b, gate, openError, () => Promise.resolve('probed'));
    expect(gate.queued).toBe(1);
    hanging.resolve('slow answer');
    await expect(a).resolves.toBe('slow answer');
    b.success();
    await expect(next).resolves.toBe('probed');
    queued.resolve('queued answer');
    await expect(q).resolves.toBe('queued answer');
  });
});
