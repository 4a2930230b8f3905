/**
 * What visitors' browsers measured, as Prometheus histograms in the service's registry (so that,
 * with workers, one scrape sums them all like the other metrics). One histogram per metric, each
 * with buckets at its own good / needs-improvement / poor thresholds (shared/rum.ts) and a few
 * between them for the 75th percentile, labelled by route (the route table's keys, or `other`),
 * device class and page layout (the variant's zoom, transform or large; its theme and cursor are
 * not kept): at most 21 × 3 × 3 label sets each (docs/decisions/036, 066).
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import { VITAL_FACTS, type LcpElement, type Vital } from '../../shared/rum.js';
import type { PageLayout } from '../render/page-variant.js';
import type { DeviceClass } from './device-class.js';

/** Per metric: its histogram's name and buckets (seconds, or CLS's score), the thresholds among them. */
export const VITAL_HISTOGRAMS: Readonly<Record<Vital, { name: string; buckets: readonly number[] }>> = {
  LCP: { name: 'web_vitals_lcp_seconds', buckets: [0.25, 0.5, 1, 1.5, 2, 2.5, 3, 4, 6, 10] },
  INP: { name: 'web_vitals_inp_seconds', buckets: [0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1, 2] },
  CLS: { name: 'web_vitals_cls', buckets: [0.01, 0.05, 0.1, 0.15, 0.25, 0.5, 1] },
  FCP: { name: 'web_vitals_fcp_seconds', buckets: [0.25, 0.5, 1, 1.4, 1.8, 2.4, 3, 4, 6] },
  TTFB: { name: 'web_vitals_ttfb_seconds', buckets: [0.05, 0.1, 0.2, 0.4, 0.8, 1.2, 1.8, 3] },
};

/** What became of a beacon. */
export type BeaconResult = 'accepted' | 'invalid' | 'too_large' | 'over_budget' | 'cross_site' | 'opted_out';

export interface PageViewLabels {
  route: string;
  device: DeviceClass;
  variant: PageLayout;
}

const NAMES: Readonly<Record<Vital, string>> = {
  LCP: 'Largest Contentful Paint',
  INP: 'Interaction to Next Paint',
  CLS: 'Cumulative Layout Shift',
  FCP: 'First Contentful Paint',
  TTFB: 'Time to First Byte',
};

/** A metric's help text, with its thresholds in the histogram's unit. */
function help(vital: Vital): string {
  const { unit, good, poor } = VITAL_FACTS[vital];
  const scale = unit === 'ms' ? 1000 : 1;
  const what = unit === 'ms' ? 'in seconds' : 'a score';
  return `${NAMES[vital]} measured in visitors’ browsers, ${what} (good up to ${good / scale}, poor over ${poor / scale}), one observation per page view, by route, device class and page variant.`;
}

export function createRumMetrics(registry: Registry) {
  const registers = [registry];
  const histograms = Object.fromEntries(
    (Object.keys(VITAL_HISTOGRAMS) as Vital[]).map((vital) => [
      vital,
      new Histogram({
        name: VITAL_HISTOGRAMS[vital].name,
        help: help(vital),
        labelNames: ['route', 'device', 'variant'],
        buckets: [...VITAL_HISTOGRAMS[vital].buckets],
        registers,
      }),
    ]),
  ) as Record<Vital, Histogram<'route' | 'device' | 'variant'>>;
  const lcpElements = new Counter({
    name: 'web_vitals_lcp_elements_total',
    help: 'Page views by what their largest contentful paint was (banner, portrait, image, text), by route.',
    labelNames: ['route', 'element'],
    registers,
  });
  const beacons = new Counter({
    name: 'web_vitals_beacons_total',
    help: 'Beacons received at POST /rum, by result: accepted, invalid (400), too_large (413), over_budget (429), cross_site (403), opted_out (Sec-GPC: 1, dropped).',
    labelNames: ['result'],
    registers,
  });

  return {
    /** One page view's metrics, in the units the browser sent (milliseconds, CLS a score). */
    pageView(labels: PageViewLabels, metrics: Partial<Record<Vital, number>>, lcpElement: LcpElement | undefined): void {
      for (const vital of Object.keys(metrics) as Vital[]) {
        const value = metrics[vital]!;
        histograms[vital].observe({ ...labels }, VITAL_FACTS[vital].unit === 'ms' ? value / 1000 : value);
      }
      if (lcpElement) lcpElements.inc({ route: labels.route, element: lcpElement });
    },
    beacon(result: BeaconResult): void {
      beacons.inc({ result });
    },
  };
}

export type RumMetrics = ReturnType<typeof createRumMetrics>;
