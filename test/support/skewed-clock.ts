/**
 * Loaded with `node --import` ahead of a service: this process's wall clock runs CLOCK_SKEW_MS
 * ahead of the machine's (behind when negative), as on a machine whose clock is off. Date.now is
 * the clock the service reads for time; timers and timeouts keep the monotonic clock, as they do
 * on such a machine. Plain JavaScript with types only, so that Node runs it as it is.
 */
const skewMs = Number(process.env.CLOCK_SKEW_MS ?? 0);
const machineNow = Date.now.bind(Date);
Date.now = (): number => machineNow() + skewMs;
