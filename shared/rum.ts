/**
 * Real-user measurement (docs/product/privacy.md, docs/decisions/036): what a browser sends to
 * `POST /rum` once per page view, and the thresholds each metric is judged by. The server's schema
 * (server/rum/beacon.ts) is built from these names and bounds; the browser's module
 * (client/rum/measure.ts) writes them.
 */

/** Where beacons go: the service's own origin (the CSP's connect-src is 'self'). */
export const RUM_PATH = '/rum';

/** The page's meta element that carries RUM_SAMPLE_RATE to the browser; absent when it is 0. */
export const RUM_SAMPLE_META = 'rum-sample-rate';

/** The largest body accepted, in bytes; a beacon is about 150. */
export const RUM_MAX_BODY_BYTES = 2048;

/** The metrics measured, as web-vitals names them. */
export const VITALS = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const;
export type Vital = (typeof VITALS)[number];

/**
 * Per metric: the unit the browser sends it in, the largest value accepted (anything larger is
 * not a page view but a broken or made-up report), and the published thresholds: up to the first
 * is good, up to the second needs improvement, beyond it poor (web.dev; web-vitals' own).
 */
export const VITAL_FACTS: Readonly<Record<Vital, { unit: 'ms' | 'score'; max: number; good: number; poor: number }>> = {
  LCP: { unit: 'ms', max: 300_000, good: 2_500, poor: 4_000 },
  INP: { unit: 'ms', max: 60_000, good: 200, poor: 500 },
  CLS: { unit: 'score', max: 100, good: 0.1, poor: 0.25 },
  FCP: { unit: 'ms', max: 300_000, good: 1_800, poor: 3_000 },
  TTFB: { unit: 'ms', max: 300_000, good: 800, poor: 1_800 },
};

/** What the largest contentful paint was: the banner (carousel or section band), an expert's portrait, another picture, text. */
export const LCP_ELEMENTS = ['banner', 'portrait', 'image', 'text'] as const;
export type LcpElement = (typeof LCP_ELEMENTS)[number];

/** One page view's report: the page's path (the server keeps only its route) and the metrics measured. */
export interface Beacon {
  page: string;
  metrics: Partial<Record<Vital, number>>;
  lcpElement?: LcpElement;
}
