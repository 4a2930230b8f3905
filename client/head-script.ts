/**
 * The page's only inline script, run in <head> before the body is parsed (docs/decisions/004
 * and 011). It is written as a typed function and sent as its source, called with its settings;
 * the server sends the script's hash in the Content-Security-Policy.
 */
import { DESIGN_WIDTH_PX, UNSCALED_MAX_WIDTH_PX } from '../shared/constants.js';

export const APP_MODULES_META = 'app-modules';
/** The longest the app waits for the page's main images before it starts anyway. */
const BOOT_WAIT_MS = 2_500;

/**
 * - Marks the document as scripted (`js` class) and keeps the CSS variable --scale at viewport
 *   width / design width (1 at `unscaledMax` px or less), now and on every resize, so that the
 *   first paint is already scaled.
 * - Starts the app once the first contentful paint has been presented (where the browser
 *   reports it; else after the first frame) and the page's main images (fetchpriority=high)
 *   have been drawn, or after `bootWaitMs` at most: the modules named by the meta element (the
 *   entry, then the route's chunks) are added together, so they load in parallel without
 *   competing with the first paint.
 */
function headScript(designWidth: number, unscaledMax: number, modulesMeta: string, bootWaitMs: number): void {
  const doc = document;
  const root = doc.documentElement;
  root.classList.add('js');
  let shown = '';
  const scale = () => {
    const width = window.innerWidth;
    const factor = String(width <= unscaledMax ? 1 : width / designWidth);
    if (factor !== shown) {
      shown = factor;
      root.style.setProperty('--scale', factor);
    }
  };
  scale();
  window.addEventListener('resize', scale);

  const meta = doc.querySelector<HTMLMetaElement>(`meta[name="${modulesMeta}"]`);
  if (!meta) return;
  let booted = false;
  const boot = () => {
    if (booted) return;
    booted = true;
    meta.content.split(' ').forEach((src, i) => {
      if (i === 0) {
        const script = doc.createElement('script');
        script.type = 'module';
        script.src = src;
        doc.head.appendChild(script);
      } else {
        const link = doc.createElement('link');
        link.rel = 'modulepreload';
        link.href = src;
        doc.head.appendChild(link);
      }
    });
  };
  setTimeout(boot, bootWaitMs);
  const afterFrame = (then: () => void) => requestAnimationFrame(() => setTimeout(then, 0));
  const start = () => {
    const waiting = Array.from(doc.querySelectorAll<HTMLImageElement>('img[fetchpriority=high]')).filter((img) => !img.complete);
    let left = waiting.length;
    if (left === 0) return boot();
    const drawn = () => {
      if (--left === 0) afterFrame(boot);
    };
    waiting.forEach((img) => {
      img.addEventListener('load', drawn);
      img.addEventListener('error', drawn);
    });
  };
  const Observer = window.PerformanceObserver;
  if (Observer && Observer.supportedEntryTypes && Observer.supportedEntryTypes.indexOf('paint') >= 0) {
    const observer = new Observer((list) => {
      if (list.getEntriesByName('first-contentful-paint').length > 0) {
        observer.disconnect();
        start();
      }
    });
    observer.observe({ type: 'paint', buffered: true });
  } else {
    afterFrame(start);
  }
}

/** The script as the page carries it: the function's source, called with its settings. */
export const HEAD_SCRIPT = `(${headScript.toString()})(${[DESIGN_WIDTH_PX, UNSCALED_MAX_WIDTH_PX, APP_MODULES_META, BOOT_WAIT_MS]
  .map((arg) => JSON.stringify(arg))
  .join(',')})`;
