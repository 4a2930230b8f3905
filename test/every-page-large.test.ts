/**
 * Every page in the large text size (长者模式) at a phone's width, a small tablet's (where the header
 * takes the phone's arrangement), a tablet's, a laptop's and the design's, with every check on each
 * visit (test/support/every-page-pass.ts). The standard text size: every-page-standard.
 */
import { everyPagePass } from './support/every-page-pass.js';

everyPagePass('every page, large text, in Chromium', true, [
  {
    width: 390,
    checks: ['one-page', 'typesetting', 'text-size', 'collisions', 'pictures', 'controls', 'past-the-side', 'text-spacing', 'focus'],
  },
  { width: 540, checks: ['controls', 'past-the-side'] },
  { width: 768, checks: ['pictures', 'controls', 'past-the-side', 'text-size'] },
  { width: 1280, checks: ['axe', 'typesetting', 'text-size', 'collisions', 'pictures', 'controls', 'text-spacing', 'focus'] },
  { width: 1920, checks: ['typesetting', 'text-size', 'collisions', 'pictures'] },
]);
