/**
 * The page's only inline script, run in <head> before the body is parsed so that the first
 * paint is already scaled (SITE.md point 7). It marks the document as scripted and keeps the
 * CSS variable --scale at viewport width / 1920 (1 at 500 px or less) on every resize.
 * The server sends its hash in the Content-Security-Policy.
 */
import { DESIGN_WIDTH_PX, UNSCALED_MAX_WIDTH_PX } from '../shared/constants.js';

export const SCALE_SCRIPT =
  `(function(){var d=document.documentElement;d.classList.add('js');` +
  `function s(){var w=window.innerWidth;d.style.setProperty('--scale',String(w<=${UNSCALED_MAX_WIDTH_PX}?1:w/${DESIGN_WIDTH_PX}))}` +
  `s();window.addEventListener('resize',s)})()`;
