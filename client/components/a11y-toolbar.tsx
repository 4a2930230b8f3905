/**
 * 辅助浏览 (docs/product/accessibility.md): one place for the reading preferences, in the header's
 * top bar (a <details>, which opens without scripts) and in the phone menu, and on the 无障碍说明
 * page. 长者模式, 高对比度, 大鼠标 and 重置 are plain links to their switches (the server
 * remembers the choice in a cookie and draws the next page with it: docs/decisions/066); the
 * stylesheet shows each switch's state from what the server wrote on <html>, so that this markup
 * is the same for every variant. 语音朗读 needs the browser's speech: it is shown once a Chinese
 * voice is known, and its code (client/read-aloud) is loaded only when the list is first shown.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { Link, useLocation } from 'react-router';
import { a11yHref, href, textSizeHref, type A11ySetting } from '../../shared/site/href.js';
import { useLargeText } from '../text-size.js';
import { useBack } from './text-size-prompt.js';
import '../styles/a11y-toolbar.css';

type ReadAloud = typeof import('../read-aloud/read-aloud.js');
let readAloud: Promise<ReadAloud> | undefined;
/** The module once loaded: reading starts in the click's own task (some browsers speak only then). */
let readAloudLoaded: ReadAloud | undefined;
const loadReadAloud = () =>
  (readAloud ??= import('../read-aloud/read-aloud.js').then((m) => {
    readAloudLoaded = m;
    return m;
  }));

/** A switch's link: its name, and its state as the stylesheet shows it (开 or 关). */
function Switch({ to, label, className, on }: { to: string; label: string; className?: string; on: boolean }) {
  return (
    <a className={`a11y-switch${className ? ` ${className}` : ''}`} href={to} rel="nofollow">
      <span className="a11y-label">{label}</span>
      <span className={`a11y-state ${on ? 'is-on' : 'is-off'}`}>{on ? '开' : '关'}</span>
    </a>
  );
}

/**
 * A preference the server draws on <html> (the theme, the cursor): both of its links are in the
 * page, and the stylesheet shows the one that changes what is shown now, as the system's
 * contrast preference may have chosen the theme in the browser (shared/site/head-script.ts).
 */
function TwoWaySwitch({ name, label, on, off }: { name: string; label: string; on: A11ySetting; off: A11ySetting }) {
  const back = useBack();
  return (
    <>
      <Switch to={a11yHref(off, back)} label={label} className={`a11y-${name}-on`} on />
      <Switch to={a11yHref(on, back)} label={label} className={`a11y-${name}-off`} on={false} />
    </>
  );
}

/**
 * The preferences, as a list; `onRead` starts the reading (the list's place decides what else it
 * closes); `help`: with a link to the 无障碍说明 page (not on that page).
 */
function Preferences({ voice, onRead, help }: { voice: boolean; onRead: (button: HTMLButtonElement) => void; help: boolean }) {
  const large = useLargeText();
  const back = useBack();
  return (
    <ul className="a11y-list">
      <li>
        <Switch to={textSizeHref(!large, back)} label="长者模式" on={large} />
      </li>
      <li>
        <TwoWaySwitch name="contrast" label="高对比度" on={{ theme: 'contrast' }} off={{ theme: 'plain' }} />
      </li>
      <li className="a11y-cursor">
        <TwoWaySwitch name="cursor" label="大鼠标" on={{ cursor: 'large' }} off={{ cursor: 'normal' }} />
      </li>
      {/* Only where the browser has a Chinese voice: in the server's HTML it is hidden. */}
      <li hidden={!voice}>
        <button type="button" className="a11y-switch a11y-read" onClick={(e) => onRead(e.currentTarget)}>
          <span className="a11y-label">语音朗读</span>
          <span className="a11y-state">读本页</span>
        </button>
      </li>
      <li>
        <a className="a11y-switch a11y-reset" href={a11yHref({ reset: true }, back)} rel="nofollow">
          <span className="a11y-label">重置</span>
          <span className="a11y-state">恢复默认</span>
        </a>
      </li>
      {help ? (
        <li>
          <Link className="a11y-help" to={href('accessibility')}>
            无障碍说明
          </Link>
        </li>
      ) : null}
    </ul>
  );
}

/**
 * A <details> whose list closes on every navigation, and on a click or a focus outside it while
 * `open`; reading stops when the page changes under it (`stopsReading`: the one instance that is
 * always drawn does it).
 */
function useClosingDetails(open: boolean, stopsReading: boolean): RefObject<HTMLDetailsElement | null> {
  const details = useRef<HTMLDetailsElement>(null);
  const { key } = useLocation();
  const read = useRef(key);
  useEffect(() => {
    if (details.current) details.current.open = false;
    if (stopsReading && key !== read.current) readAloudLoaded?.stopReading();
    read.current = key;
  }, [key, stopsReading]);
  useEffect(() => {
    const panel = details.current;
    if (!panel || !open) return;
    const outside = (e: Event) => {
      if (panel.open && e.target instanceof Node && !panel.contains(e.target)) panel.open = false;
    };
    document.addEventListener('pointerdown', outside);
    document.addEventListener('focusin', outside);
    return () => {
      document.removeEventListener('pointerdown', outside);
      document.removeEventListener('focusin', outside);
    };
  }, [open]);
  return details;
}

/**
 * `place`: `bar`, the top bar's 辅助浏览 button and its list over the page; `menu`, the same in the
 * phone menu (drawn while the menu is open), its list opening in the menu's flow; `page`, the list
 * on the 无障碍说明 page.
 */
export function A11yToolbar({ place }: { place: 'bar' | 'menu' | 'page' }) {
  const [open, setOpen] = useState(false);
  const [voice, setVoice] = useState(false);
  const details = useClosingDetails(open, place === 'bar');
  // Whether the browser has a Chinese voice, asked once the list is first shown (the read-aloud code
  // loaded then). A chunk that fails to load (the network, a new build): reading is not offered.
  const [watching, watch] = useState(place !== 'bar');
  useEffect(() => {
    if (!watching) return;
    const unwatch = loadReadAloud().then(
      (m) => m.watchChineseVoice(setVoice),
      (error: unknown) => console.warn('read aloud: could not load', error),
    );
    return () => void unwatch.then((stop) => stop?.());
  }, [watching]);

  const read = (button: HTMLButtonElement) => {
    const list = button.closest('details');
    if (list) list.open = false;
    // In the phone menu: the menu closes, so that the page being read is seen.
    if (place === 'menu') document.querySelector<HTMLButtonElement>('.menu-toggle[aria-expanded="true"]')?.click();
    readAloudLoaded?.startReading(button);
  };
  const list = <Preferences voice={voice} onRead={read} help={place !== 'page'} />;

  if (place === 'page') return list;
  return (
    <details
      ref={details}
      className={`a11y-toolbar a11y-${place}`}
      onToggle={(e) => {
        setOpen(e.currentTarget.open);
        if (e.currentTarget.open) watch(true);
      }}
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !e.currentTarget.open) return;
        e.currentTarget.open = false;
        e.currentTarget.querySelector('summary')?.focus();
      }}
    >
      <summary className="a11y-toggle">辅助浏览</summary>
      <div className="a11y-panel">{list}</div>
    </details>
  );
}
