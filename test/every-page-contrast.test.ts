/**
 * Every page in the high-contrast theme (高对比度, client/styles/contrast.css) at a phone's and a
 * laptop's width (test/support/every-page-pass.ts): axe with AAA contrast (WCAG 1.4.6, 7:1 for
 * text), and every control's edge and focus ring at 4.5:1. The theme changes colours, not layout:
 * the other checks are the standard pass's (every-page-standard).
 */
import { everyPagePass } from './support/every-page-pass.js';

everyPagePass(
  'every page, high contrast, in Chromium',
  false,
  [
    { width: 390, checks: ['axe', 'theme-contrast'] },
    { width: 1280, checks: ['axe', 'theme-contrast'] },
  ],
  { contrast: true },
);
