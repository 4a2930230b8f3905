/**
 * The page's only inline script, run in <head> before the body is parsed. It
 * - marks the document as scripted (`js` class) and keeps the CSS variable --scale at
 *   viewport width / 1920 (1 at 500 px or less), now and on every resize, so that the first
 *   paint is already scaled (SITE.md point 7);
 * - starts the app after the first frame: the module scripts named by <meta name="app-modules">
 *   (the entry, then the current route's chunks) are added together, so they load in parallel
 *   without competing with the first paint for the network.
 * The server sends its hash in the Content-Security-Policy.
 */
import { DESIGN_WIDTH_PX, UNSCALED_MAX_WIDTH_PX } from '../shared/constants.js';

export const APP_MODULES_META = 'app-modules';

export const HEAD_SCRIPT =
  `(function(){var d=document,h=d.documentElement,k;h.classList.add('js');` +
  `function s(){var w=window.innerWidth,f=String(w<=${UNSCALED_MAX_WIDTH_PX}?1:w/${DESIGN_WIDTH_PX});` +
  `if(f!==k){k=f;h.style.setProperty('--scale',f)}}` +
  `s();window.addEventListener('resize',s);` +
  `var m=d.querySelector('meta[name="${APP_MODULES_META}"]');if(!m)return;` +
  `requestAnimationFrame(function(){setTimeout(function(){` +
  `m.content.split(' ').forEach(function(u,i){var e;` +
  `if(i===0){e=d.createElement('script');e.type='module';e.src=u}` +
  `else{e=d.createElement('link');e.rel='modulepreload';e.href=u}` +
  `d.head.appendChild(e)})},0)})})()`;
