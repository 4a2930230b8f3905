/**
 * Moves this test process's wall clock on, instead of waiting for a cache window to pass. The
 * service reads its windows on Date.now() (server/reliability/wall-clock.ts), so only Date is
 * faked, and it keeps running at real speed between moves: sockets, timers and timeouts keep
 * real time. The clock is real again when the test ends. Between moves it advances in steps of 20
 * ms of real time (fake-timers' advanceTimeDelta): on a fast machine a few requests can happen
 * within one step, so a move should go past a window's end, not onto its last instant.
 */
import { onTestFinished, vi } from 'vitest';

export function later(ms: number): void {
  if (!vi.isFakeTimers()) {
    vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
    onTestFinished(() => {
      vi.useRealTimers();
    });
  }
  vi.setSystemTime(Date.now() + ms);
}
