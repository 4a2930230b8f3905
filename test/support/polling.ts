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

/**
 * The sum of the samples of `name` in Prometheus text whose labels match, read straight from the
 * text with a regular expression: a check that shares nothing with how the service reads metrics.
 */
export function counter(text: string, name: string, match: Record<string, RegExp> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const m = new RegExp(`^${name}(?:\\{(.*)\\})? (\\S+)$`).exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...(m[1] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(match).every(([k, re]) => re.test(labels[k] ?? ''))) sum += Number(m[2]);
  }
  return sum;
}
