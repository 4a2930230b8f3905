/**
 * The status page's "Visitors" section (status-page.ts): the 75th percentile of each
 * metric browsers reported, per route and device class (page variants summed), computed from the
 * histograms' buckets as PromQL's histogram_quantile does, each figure coloured by its thresholds
 * (shared/rum.ts). Every text escaped: labels are bounded by the receiver, but still printed safely.
 */
import { escapeHtml } from '../../shared/escape-json.js';
import { VITAL_FACTS, VITALS, type Vital } from '../../shared/rum.js';
import type { histogramQuantile, Sample } from './metric-samples.js';
import { VITAL_HISTOGRAMS } from '../rum/rum-metrics.js';

/** A p75 as the table shows it. */
function shown(vital: Vital, value: number): string {
  if (VITAL_FACTS[vital].unit === 'score') return value.toFixed(3);
  return value < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(2)} s`;
}

function tone(vital: Vital, value: number): 'ok' | 'warn' | 'bad' {
  const { good, poor } = VITAL_FACTS[vital];
  return value <= good ? 'ok' : value <= poor ? 'warn' : 'bad';
}

/** The section's HTML: a table of routes and devices that reported, busiest first. */
/** `quantile` is the status page's own (passed in: the page imports this module). */
export function visitorsSection(samples: (name: string) => Sample[], quantile: typeof histogramQuantile): string {
  const groups = new Map<string, { route: string; device: string; byVital: Map<Vital, Sample[]> }>();
  for (const vital of VITALS) {
    for (const s of samples(VITAL_HISTOGRAMS[vital].name)) {
      const route = String(s.labels.route);
      const device = String(s.labels.device);
      const key = `${route}\u0000${device}`;
      let group = groups.get(key);
      if (!group) groups.set(key, (group = { route, device, byVital: new Map() }));
      const list = group.byVital.get(vital);
      if (list) list.push(s);
      else group.byVital.set(vital, [s]);
    }
  }
  const rows = [...groups.values()]
    .map(({ route, device, byVital }) => {
      // Page views: the most any metric counted (TTFB is not measured after a client-side navigation, LCP not in a hidden tab).
      const views = Math.max(
        0,
        ...[...byVital.values()].map((h) => h.filter((s) => s.metricName?.endsWith('_count')).reduce((n, s) => n + s.value, 0)),
      );
      const cells = VITALS.map((vital) => {
        const raw = quantile(0.75, byVital.get(vital) ?? []);
        if (raw === undefined) return '<td class="none">n/a</td>';
        const value = VITAL_FACTS[vital].unit === 'ms' ? raw * 1000 : raw;
        return `<td class="${tone(vital, value)}">${escapeHtml(shown(vital, value))}</td>`;
      });
      return { route, device, views, cells };
    })
    .filter((r) => r.views > 0)
    .sort((a, b) => b.views - a.views || a.route.localeCompare(b.route) || a.device.localeCompare(b.device));
  if (rows.length === 0) return '<p class="none">No browser has reported a page view since the start (RUM_SAMPLE_RATE).</p>';
  const head = ['route', 'device', 'page views', ...VITALS.map((v) => `${v} p75`)].map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.route)}</td><td>${escapeHtml(r.device)}</td><td>${r.views.toLocaleString('en-US')}</td>${r.cells.join('')}</tr>`,
    )
    .join('');
  const legend = VITALS.map((v) => `${v} ${shown(v, VITAL_FACTS[v].good)} / ${shown(v, VITAL_FACTS[v].poor)}`).join(' · ');
  return `<p class="none">Green: good; amber: needs improvement; red: poor (${escapeHtml(legend)}).</p><table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}
