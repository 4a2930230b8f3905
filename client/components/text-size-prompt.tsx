/**
 * The large-text mode's switch (长者模式) and, where the standard page is scaled down, its prompt: plain links, which
 * work before and without the app's scripts; the server draws the page in the mode the visitor
 * chose and remembers the choice in a cookie (docs/decisions/038).
 */
import { useLocation } from 'react-router';
import { canonicalHref, textSizeHref } from '../../shared/site/href.js';
import { useLargeText } from '../text-size.js';

/** Back to the page's canonical address: the page's HTML depends on nothing else of its address. */
export function useBack(): string {
  const { pathname, search } = useLocation();
  return canonicalHref(pathname, new URLSearchParams(search)) ?? pathname;
}

export function TextSizeSwitch() {
  const large = useLargeText();
  return (
    <a className="text-size-switch" href={textSizeHref(!large, useBack())} rel="nofollow">
      <span className="text-size-mark" aria-hidden="true">
        {large ? '标' : '大'}
      </span>
      {large ? '标准版' : '长者模式'}
    </a>
  );
}

/**
 * Above the page in the standard mode, shown by the stylesheet only where the design is drawn
 * smaller than itself (body text 16 to 18 px: the head script marks the document), and only until
 * the visitor has chosen a mode: the head script marks the document once either link of the switch
 * has been followed in this browser.
 */
export function TextSizePrompt() {
  const back = useBack();
  if (useLargeText()) return null;
  return (
    <aside className="text-prompt" aria-label="长者模式">
      <p>字太小？长者模式的字更大，看得更清楚。</p>
      <a className="btn btn-primary" href={textSizeHref(true, back)} rel="nofollow">
        换成长者模式
      </a>
      <a className="btn btn-ghost" href={textSizeHref(false, back)} rel="nofollow">
        保持标准版
      </a>
    </aside>
  );
}
