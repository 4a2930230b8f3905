/**
 * Every page at a tablet's and a phone's width, in both text sizes, with every check on each
 * visit (test/support/every-page-pass.ts). The wider widths: every-page-wide.
 */
import { everyPagePass } from './support/every-page-pass.js';

everyPagePass('every page, narrow, in Chromium', [
  { width: 768, large: false, checks: ['pictures', 'controls', 'past-the-side'] },
  { width: 768, large: true, checks: ['pictures', 'controls', 'past-the-side'] },
  { width: 390, large: false, checks: ['axe', 'typesetting', 'collisions', 'pictures', 'controls', 'past-the-side', 'furniture'] },
  { width: 390, large: true, checks: ['typesetting', 'collisions', 'pictures', 'controls', 'past-the-side'] },
]);
