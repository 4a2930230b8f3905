/**
 * Every page in the standard text size at a phone's, a tablet's, a laptop's and the design's
 * width, with every check on each visit (test/support/every-page-pass.ts). The large text size:
 * every-page-large. Hospitals' names and phone numbers are looked at in the phone's layout and the
 * desktop's (what each shows differs: the header's bar, a fold, a call kept on screen).
 *
 * axe-core, AAA contrast included (7:1 for text: docs/decisions/072), runs at 390 and 1280 px,
 * not at 1920: at 1280 px the design is drawn at its least factor (1707 / 1920) and flows to a
 * narrower design width (docs/decisions/064), so its targets and text are smallest there, and its
 * layout is the one 1920 px draws larger, bar the breakpoints 1280's narrower design width crosses.
 */
import { everyPagePass } from './support/every-page-pass.js';

everyPagePass('every page, standard text, in Chromium', false, [
  {
    width: 390,
    checks: [
      'one-page',
      'axe',
      'typesetting',
      'text-size',
      'collisions',
      'pictures',
      'controls',
      'past-the-side',
      'furniture',
      'links',
      'text-spacing',
      'focus',
    ],
  },
  // The standard view's narrowest drawn at its least factor: the header's bar as on a laptop did not fit below 528 px.
  { width: 520, checks: ['controls', 'past-the-side'] },
  { width: 768, checks: ['pictures', 'controls', 'past-the-side', 'text-size'] },
  {
    width: 1280,
    checks: [
      'axe',
      'typesetting',
      'text-size',
      'collisions',
      'pictures',
      'controls',
      'small-things',
      'grids',
      'placeholders',
      'links',
      'text-spacing',
      'focus',
    ],
  },
  { width: 1920, checks: ['typesetting', 'text-size', 'collisions', 'pictures', 'grids', 'furniture'] },
]);
