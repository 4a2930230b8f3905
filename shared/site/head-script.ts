/**
 * The page's only inline script, run in <head> before the body is parsed (docs/decisions/004
 * and 011). It is written as a typed function and sent as its source, called with its settings;
 * the server sends the script's hash in the Content-Security-Policy.
 */
import { DESIGN_WIDTH_PX, SCALED_MIN_WIDTH_PX, TEXT_SIZE_PATH, UNSCALED_MAX_WIDTH_PX } from '../constants.js';

/** This browser's storage key saying a mode was chosen here, which ends the tablet's prompt. */
export const TEXT_SIZE_CHOSEN_KEY = 'textsize-chosen';

export const APP_MODULES_META = 'app-modules';
/** The longest the app waits for the page's main images before it starts anyway. */
const BOOT_WAIT_MS = 2_500;

/**
 * Browser zoom levels the page honours (docs/decisions/019): zooming in enlarges the design; a zoom
 * below 100 % is left to the spec's scaling, which fills the window whatever the zoom.
 */
const ZOOM_LEVELS = [1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4, 5];
/** How far (CSS px) the window's outer width may be from inner width × zoom: its frame and a scrollbar. */
const ZOOM_SLACK_PX = 24;

/**
 * - Where the visitor chose no theme (the server wrote no `data-theme`), follows the system's
 *   contrast preference: `prefers-contrast: more` draws the high-contrast theme, now and whenever
 *   the preference changes (docs/decisions/066).
 * - Marks the document as scripted (`js` class), and as having chosen a text size
 *   (`data-prompt="off"`, which hides the large-text prompt), and keeps the CSS variable --scale, now and on
 *   every resize, so that the first paint is already scaled: viewport width / design width,
 *   multiplied by the visitor's browser zoom, so that zooming in enlarges the page as it does any
 *   other site; never less than `scaledMin` / design width, where the design's body text is drawn
 *   at 16 px (docs/decisions/064), nor less than 1 in the large-text mode, and 1 at `unscaledMax`
 *   px or less. Where the factor is held up, the layout flows to a design width narrower than the
 *   design's, never narrower than the phone layout's threshold. `data-shrunk` on the root says
 *   the page is drawn smaller than the design (the large-text prompt is offered there).
 * - Starts the app once the first contentful paint has been presented (where the browser
 *   reports it; else after the first frame) and the page's main images (fetchpriority=high)
 *   have been drawn, or after `bootWaitMs` at most: the modules named by the meta element (the
 *   entry, then the route's chunks) are added together, so they load in parallel without
 *   competing with the first paint.
 */
function headScript(
  designWidth: number,
  unscaledMax: number,
  scaledMin: number,
  modulesMeta: string,
  bootWaitMs: number,
  levels: number[],
  slack: number,
  chosenKey: string,
  switchPath: string,
): void {
  const doc = document;
  const win = window;
  const root = doc.documentElement;
  root.classList.add('js');
  // A mode chosen once (either link of the switch followed) ends the tablet's large-text prompt.
  // This browser's storage keeps that: the mode's cookie is for the server alone (HttpOnly).
  try {
    if (localStorage.getItem(chosenKey)) root.dataset.prompt = 'off';
  } catch {
    // Storage refused (a policy, a sandbox): the prompt stays until a mode is chosen here.
  }
  doc.addEventListener(
    'click',
    (event) => {
      const target = event.target as Element | null;
      if (!target?.closest?.(`a[href^="${switchPath}?"]`)) return;
      try {
        localStorage.setItem(chosenKey, '1');
      } catch {
        // As above: the choice itself still works, through the link.
      }
    },
    true,
  );
  const large = root.dataset.text === 'large';

  if (!root.dataset.theme && win.matchMedia) {
    const more = win.matchMedia('(prefers-contrast: more)');
    const follow = () => {
      if (more.matches) root.dataset.theme = 'contrast';
      else delete root.dataset.theme;
    };
    follow();
    more.addEventListener('change', follow);
  }

  // Chromium, Edge and Safari keep outerWidth in screen units, so outer / inner is the zoom; a
  // zoom in also raises devicePixelRatio by as much (a screen's own ratio is 1 or more).
  const outerZoom = () => {
    const ratio = win.devicePixelRatio || 1;
    let best = 0;
    let miss = slack;
    for (const level of levels) {
      const off = Math.abs(win.outerWidth - win.innerWidth * level);
      if (off <= miss && ratio >= level * 0.98) {
        miss = off;
        best = level;
      }
    }
    return best;
  };
  let zoom = 1;
  let outerTells = false;
  let dpr = win.devicePixelRatio || 1;
  let device = win.innerWidth * dpr;
  // Firefox reports outerWidth in CSS px too: there a zoom shows as a new devicePixelRatio at a
  // resize that keeps the window's width in device pixels (a move to another screen does not).
  const measure = () => {
    const ratio = win.devicePixelRatio || 1;
    const outer = outerZoom();
    if (outer > 1) outerTells = true;
    if (outerTells) zoom = outer || zoom;
    else if (ratio !== dpr && Math.abs(win.innerWidth * ratio - device) <= device * 0.02) zoom = Math.max(1, (zoom * ratio) / dpr);
    dpr = ratio;
    device = win.innerWidth * ratio;
  };

  let shown = '';
  const least = large ? 1 : scaledMin / designWidth;
  const scale = () => {
    measure();
    const width = win.innerWidth;
    // The layout is never narrower than the phone layout's threshold once the window is wider.
    const factor = width <= unscaledMax ? 1 : Math.min(Math.max((width * zoom) / designWidth, least), width / (unscaledMax + 1));
    if (String(factor) !== shown) {
      shown = String(factor);
      root.style.setProperty('--scale', shown);
      root.toggleAttribute('data-shrunk', factor < 1);
    }
  };
  scale();
  // Reading innerWidth makes the browser lay the page out first. A resize while the document is
  // still parsed (Chromium sends a phone's page one as it loads) is answered once it is whole: read
  // at once, it laid the half-parsed page out in a task of its own, only for the rest to be laid
  // out again. (A ResizeObserver on the root reports after a layout, but a factor set there changes
  // the root's height at once, which the browser reports as an error.)
  let resizedWhileParsed = false;
  win.addEventListener('resize', () => {
    if (doc.readyState !== 'loading') scale();
    else if (!resizedWhileParsed) {
      resizedWhileParsed = true;
      doc.addEventListener('DOMContentLoaded', scale, { once: true });
    }
  });

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
export const HEAD_SCRIPT = `(${headScript.toString()})(${[
  DESIGN_WIDTH_PX,
  UNSCALED_MAX_WIDTH_PX,
  SCALED_MIN_WIDTH_PX,
  APP_MODULES_META,
  BOOT_WAIT_MS,
  ZOOM_LEVELS,
  ZOOM_SLACK_PX,
  TEXT_SIZE_CHOSEN_KEY,
  TEXT_SIZE_PATH,
]
  .map((arg) => JSON.stringify(arg))
  .join(',')})`;
