/**
 * Core Web Vitals of this page view, measured by web-vitals (its standard build: the LCP element
 * is read from the metric's own entries, which the attribution build would take twice the bytes to
 * name) and sent to the service once per page view, when the page is hidden or left
 * (the web-vitals README's batching: one `navigator.sendBeacon` per view). A client-side route
 * change is a page view of its own where the browser reports soft navigations (Chromium 151+):
 * web-vitals then closes the previous view's metrics and measures the new address's afresh.
 * Elsewhere the whole visit is the first page's view, as the Chrome UX Report counts it.
 */
import { onCLS, onFCP, onINP, onLCP, onTTFB, type LCPMetric, type MetricType } from 'web-vitals';
import { RUM_PATH, type Beacon, type LcpElement } from '../../shared/rum.js';

interface View {
  page: string;
  metrics: Beacon['metrics'];
  lcpElement?: LcpElement;
}

/**
 * The views of this document not yet sent, by order: the navigation's id, after the number of
 * back/forward restores (web-vitals keeps the id through a restore, which is a view of its own).
 */
const views = new Map<number, View>();
/** The views already sent: a report that comes later (INP and CLS again at the next hiding) is dropped. */
const sent = new Set<number>();
let restores = 0;
/**
 * Views held until the page is hidden: a view left by a client-side navigation still gets its INP
 * from web-vitals when the browser is next idle, so it is sent with the others. Past this many, the
 * oldest, long finished, is sent at once.
 */
const MAX_HELD_VIEWS = 20;

/** What the largest paint was, from the class of the component that drew it (client/components). */
function lcpElementOf(metric: LCPMetric): LcpElement | undefined {
  // The last entry is the one the metric's value is.
  const entry = metric.entries.at(-1);
  if (!entry) return undefined;
  if (!entry.url) return 'text';
  const element = entry.element;
  if (element?.closest('.carousel, .page-banner')) return 'banner';
  if (element?.closest('.expert-avatar, .profile-avatar')) return 'portrait';
  return 'image';
}

/** One request per view, with what was measured of it. */
function send(order: number, view: View): void {
  views.delete(order);
  sent.add(order);
  const beacon: Beacon = { page: view.page, metrics: view.metrics, ...(view.lcpElement ? { lcpElement: view.lcpElement } : {}) };
  navigator.sendBeacon(RUM_PATH, JSON.stringify(beacon));
}

function record(metric: MetricType): void {
  // A soft navigation's or a restore's TTFB is 0 by definition: no response was waited for.
  if (metric.name === 'TTFB' && (metric.navigationType === 'soft-navigation' || metric.navigationType === 'back-forward-cache')) return;
  const order = restores * 2 ** 32 + metric.navigationId;
  if (sent.has(order)) return;
  let view = views.get(order);
  if (!view) {
    // The path only (no query, no anchor), cut to what the service takes: a longer one is no route of the site.
    view = { page: new URL(metric.navigationURL ?? location.href).pathname.slice(0, 512), metrics: {} };
    views.set(order, view);
    const [oldest] = views;
    if (views.size > MAX_HELD_VIEWS) send(...oldest!);
  }
  const score = metric.name === 'CLS';
  view.metrics[metric.name] = Math.round(metric.value * (score ? 1e4 : 10)) / (score ? 1e4 : 10);
  if (metric.name === 'LCP') view.lcpElement = lcpElementOf(metric);
}

export function measure(): void {
  // Before web-vitals' own listener, so that a restore's first reports count as the new view's.
  addEventListener('pageshow', (event) => {
    if (event.persisted) restores++;
  });
  const options = { reportSoftNavs: true };
  onTTFB(record, options);
  onFCP(record, options);
  onLCP(record, options);
  onCLS(record, options);
  onINP(record, options);
  // After web-vitals' listeners, which report CLS and INP as the page is hidden.
  addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') for (const [order, view] of views) send(order, view);
  });
}
