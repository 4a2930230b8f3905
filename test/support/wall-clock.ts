/**
 * Moves this test process's wall clock on, instead of waiting for a cache window to pass. The
 * service reads its windows on Date.now() (server/reliability/wall-clock.ts), so only Date moves:
 * it keeps running at real speed, `ms` ahead, and sockets, timers and timeouts keep real time.
 * The clock is real again when the test ends.
 *
 * Date is replaced by a subclass that adds an offset rather than by vitest's fake timers: with
 * fake timers installed, every look of expect.poll and vi.waitFor moves them on by its interval,
 * so a test that polls after moving the clock would see its windows end early.
 */
import { onTestFinished } from 'vitest';

const RealDate = Date;
let offset = 0;

class OffsetDate extends RealDate {
  constructor(...args: [] | [value: string | number | Date] | [year: number, monthIndex: number, ...rest: number[]]) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...(args as [number, number, ...number[]]));
  }

  static override now(): number {
    return RealDate.now() + offset;
  }
}

export function later(ms: number): void {
  if (globalThis.Date === RealDate) {
    globalThis.Date = OffsetDate as DateConstructor;
    onTestFinished(() => {
      globalThis.Date = RealDate;
      offset = 0;
    });
  }
  offset += ms;
}
