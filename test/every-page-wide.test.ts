/**
 * Every page at a laptop's and the design's width, in both text sizes, with every check on each
 * visit (test/support/every-page-pass.ts). The phone's and the tablet's widths: every-page-narrow.
 */
import { everyPagePass } from './support/every-page-pass.js';

everyPagePass('every page, wide, in Chromium', [
  { width: 1920, large: false, checks: ['axe', 'typesetting', 'collisions', 'pictures', 'grids', 'furniture'] },
  { width: 1920, large: true, checks: ['typesetting', 'collisions', 'pictures'] },
  {
    width: 1280,
    large: false,
    checks: ['axe', 'typesetting', 'collisions', 'pictures', 'controls', 'small-things', 'grids', 'placeholders'],
  },
  { width: 1280, large: true, checks: ['axe', 'typesetting', 'collisions', 'pictures', 'controls'] },
]);
