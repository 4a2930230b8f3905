/**
 * Whether this page view is measured, decided in the entry (a few hundred bytes): the measuring
 * code (measure.ts, with web-vitals) is a chunk of its own, loaded only when the page carries a
 * sample rate, the visitor does not ask for privacy (Global Privacy Control), and the draw says
 * yes; then only once React has hydrated, the page has loaded (its pictures, its scripts) and the
 * browser is idle: never on the first view's path, nor competing with it (docs/decisions/058).
 * web-vitals reads what the browser buffered before it was loaded, as its README advises.
 */
import { useEffect } from 'react';
import { RUM_SAMPLE_META } from '../../shared/rum.js';

/** The longest the measuring code waits for an idle moment. */
const IDLE_TIMEOUT_MS = 5_000;

let started = false;

/** Rendered beside the app (entry-client.tsx): its effect runs once hydration has committed. */
export function RumAfterHydration(): null {
  useEffect(startRum, []);
  return null;
}

function startRum(): void {
  if (started) return;
  started = true;
  const rate = Number(document.querySelector<HTMLMetaElement>(`meta[name="${RUM_SAMPLE_META}"]`)?.content);
  const privacy = (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
  if (!(rate > 0) || privacy || Math.random() >= rate) return;
  const load = () => void import('./measure.js').then((m) => m.measure());
  // Safari has no requestIdleCallback: a timeout lets the current work finish first.
  const whenIdle = () =>
    window.requestIdleCallback ? window.requestIdleCallback(load, { timeout: IDLE_TIMEOUT_MS }) : setTimeout(load, 1);
  if (document.readyState === 'complete') whenIdle();
  else addEventListener('load', whenIdle, { once: true });
}
