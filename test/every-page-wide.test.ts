/**
 * Every page at a laptop's and the design's width, in both text sizes, with every check on each
 * visit (test/support/every-page-pass.ts). The phone's and the tablet's widths: every-page-narrow.
 *
 * axe-core runs at 1280 px, not at 1920: in the standard text size both are the one scaled layout
 * (no media query between them), the same document and styles, drawn smaller at 1280, where its
 * targets and text are smaller and so held to the stricter size and contrast rules.
 */
import { everyPagePass } from './support/every-page-pass.js';

everyPagePass('every page, wide, in Chromium', [
  { width: 1920, large: false, checks: ['typesetting', 'collisions', 'pictures', 'grids', 'furniture'] },
  { width: 1920, large: true, checks: ['typesetting', 'collisions', 'pictures'] },
  {
    width: 1280,
    large: false,
    checks: ['axe', 'typesetting', 'collisions', 'pictures', 'controls', 'small-things', 'grids', 'placeholders'],
  },
  { width: 1280, large: true, checks: ['axe', 'typesetting', 'collisions', 'pictures', 'controls'] },
]);
