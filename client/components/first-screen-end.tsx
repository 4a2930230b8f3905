/**
 * Marks where a page's first band ends (an inner page's banner, the home carousel and the
 * figures over its foot, an error's message). The document's head asks the browser to draw nothing until this mark is parsed
 * (`<link rel="expect" blocking="render">`), so that a page arriving in pieces is never drawn
 * with half its header or half its banner, which then shifts (docs/decisions/042). Chromium lifts
 * the block when the element is inserted, so the mark comes after the band's content, not around it.
 */
import { FIRST_SCREEN_END_ID } from '../../shared/constants.js';

export function FirstScreenEnd() {
  return <span id={FIRST_SCREEN_END_ID} hidden />;
}
