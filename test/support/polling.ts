/** Waiting for what a running service reports: a condition, or a series in its /metrics. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Resolves once `check` holds; throws, naming `what`, after `timeoutMs`. The deadline is kept on
 * the monotonic clock, so that a test that fakes Date still gets its timeout.
 */
export async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** The value of one series (`name{labels}`) in a service's /metrics; 0 when absent (a counter not yet counted). */
export async function metric(svc: { url: string }, series: string): Promise<number> {
  const text = await (await fetch(`${svc.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.split(' ')[1]);
}
