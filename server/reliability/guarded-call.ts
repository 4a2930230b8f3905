/**
 * A call to a dependency through its circuit breaker and its gate (calls at once, a queue):
 * the breaker is asked first, so that an open circuit refuses at once without taking a place in
 * the queue; the gate's refusal (a `busy` ContentError) is thrown before the breaker counts
 * anything, since a full queue is not the dependency's failure. A probe refused a slot was never
 * made: its turn goes back to the breaker, or the circuit would stay half-open with no probe in
 * flight until some other call ended.
 */
import type { CircuitBreaker } from './circuit-breaker.js';
import type { ConcurrencyGate } from './concurrency-gate.js';

/** Runs `call` when the breaker allows it and the gate has a slot; `openError` makes the refusal of an open circuit. */
export async function guardedCall<T>(
  breaker: CircuitBreaker,
  gate: ConcurrencyGate,
  openError: () => Error,
  call: () => Promise<T>,
): Promise<T> {
  const permit = breaker.permit();
  if (!permit) throw openError();
  let made = false;
  try {
    return await gate.run(() => {
      made = true;
      return call();
    });
  } catch (error) {
    if (!made) breaker.notMade(permit);
    throw error;
  }
}
