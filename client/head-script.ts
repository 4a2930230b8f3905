/**
 * The page's only inline script, run in <head> before the body is parsed. It
 * - marks the document as scripted (`js` class) and keeps the CSS variable --scale at
 *   viewport width / 1920 (1 at 500 px or less), now and on every resize, so that the first
 *   paint is already scaled (SITE.md point 7);
 * - starts the app once the first contentful paint has been presented (where the browser
 *   reports it; else after the first frame) and the page's most important images (those with
 *   fetchpriority=high) have been drawn, or after BOOT_WAIT_MS at most: the module scripts named
 *   by <meta name="app-modules"> (the entry, then the current route's chunks) are added together,
 *   so they load in parallel without competing with the first paint for the network.
 * The server sends its hash in the Content-Security-Policy.
 */
import { DESIGN_WIDTH_PX, UNSCALED_MAX_WIDTH_PX } from '../shared/constants.js';

export const APP_MODULES_META = 'app-modules';
/** The longest the app waits for the page's main images before it starts anyway. */
const BOOT_WAIT_MS = 2_500;

export const HEAD_SCRIPT =
  `(function(){var d=document,h=d.documentElement,k,b;h.classList.add('js');` +
  `function s(){var w=window.innerWidth,f=String(w<=${UNSCALED_MAX_WIDTH_PX}?1:w/${DESIGN_WIDTH_PX});` +
  `if(f!==k){k=f;h.style.setProperty('--scale',f)}}` +
  `s();window.addEventListener('resize',s);` +
  `var m=d.querySelector('meta[name="${APP_MODULES_META}"]');if(!m)return;` +
  `function boot(){if(b)return;b=1;m.content.split(' ').forEach(function(u,i){var e;` +
  `if(i===0){e=d.createElement('script');e.type='module';e.src=u}` +
  `else{e=d.createElement('link');e.rel='modulepreload';e.href=u}` +
  `d.head.appendChild(e)})}` +
  `setTimeout(boot,${BOOT_WAIT_MS});` +
  // Once the main images are drawn (after the frame that follows their load).
  `function start(){` +
  `var w=[].filter.call(d.querySelectorAll('img[fetchpriority=high]'),function(i){return!i.complete}),n=w.length;` +
  `if(!n)return boot();` +
  `w.forEach(function(i){function g(){if(--n===0)requestAnimationFrame(function(){setTimeout(boot,0)})}` +
  `i.addEventListener('load',g);i.addEventListener('error',g)})}` +
  // After the first contentful paint has been presented, where the browser reports it; else
  // after the next frame.
  `var P=window.PerformanceObserver;` +
  `if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf('paint')>=0){` +
  `var o=new P(function(l){if(l.getEntriesByName('first-contentful-paint').length){o.disconnect();start()}});` +
  `o.observe({type:'paint',buffered:true})}` +
  `else requestAnimationFrame(function(){setTimeout(start,0)})})()`;
