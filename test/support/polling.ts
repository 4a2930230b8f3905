/** Reading what a running service reports in its /metrics (tests wait on it with expect.poll or vi.waitFor). */

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
