/**
 * 辅助浏览 (docs/product/accessibility.md): one place for the reading preferences, in the header's
 * top bar (a <details>, which opens without scripts) and in the phone menu, and on the 无障碍说明
 * page. 长者模式, 高对比度, 大鼠标 and 重置 are plain links to their switches (the server
 * remembers the choice in a cookie and draws the next page with it: docs/decisions/066); the
 * stylesheet shows each switch's state from what the server wrote on <html>, so that this markup
 * is the same for every variant. 语音朗读 needs the browser's speech: it is shown once a Chinese
 * voice is known, and its code (client/read-aloud) is loaded only when the list is first shown.
 */
import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
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

/** Whether the browser has a Chinese voice, known once `watching` (the list is shown) and the read-aloud code has loaded. */
function useChineseVoice(watching: boolean): boolean {
  const [voice, setVoice] = useState(false);
  useEffect(() => {
    if (!watching) return;
    let unwatch: (() => void) | undefined;
    let gone = false;
    loadReadAloud().then(
      (m) => {
        if (!gone) unwatch = m.watchChineseVoice((found) => setVoice(found));
      },
      // A chunk that failed to load (the network, a new build): reading is not offered.
      (error: unknown) => console.warn('read aloud: could not load', error),
    );
    return () => {
      gone = true;
      unwatch?.();
    };
  }, [watching]);
  return voice;
}

/** Reading stops when the page changes under it (`watch`: the one instance that is always drawn does it). */
function useStopOnNavigation(watch: boolean): void {
  const { key } = useLocation();
  const read = useRef(key);
  useEffect(() => {
    if (!watch || key === read.current) return;
    read.current = key;
    readAloudLoaded?.stopReading();
  }, [watch, key]);
}

/** A <details> whose list closes on every navigation, and on a click or a focus outside it while `open`. */
function useClosingDetails(open: boolean): RefObject<HTMLDetailsElement | null> {
  const details = useRef<HTMLDetailsElement>(null);
  const { key } = useLocation();
  useEffect(() => {
    if (details.current) details.current.open = false;
  }, [key]);
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
  const [shown, setShown] = useState(place !== 'bar');
  const [open, setOpen] = useState(false);
  const details = useClosingDetails(open);
  const voice = useChineseVoice(shown);
  useStopOnNavigation(place === 'bar');

  const read = (button: HTMLButtonElement) => {
    const list = button.closest('details');
    if (list) list.open = false;
    // In the phone menu: the menu closes, so that the page being read is seen.
    if (place === 'menu') document.querySelector<HTMLButtonElement>('.menu-toggle[aria-expanded="true"]')?.click();
    readAloudLoaded?.startReading(button);
  };
  const list = <Preferences voice={voice} onRead={read} help={place !== 'page'} />;

  if (place === 'page') return <Group>{list}</Group>;
  return (
    <details
      ref={details}
      className={`a11y-toolbar a11y-${place}`}
      onToggle={(e) => {
        setOpen(e.currentTarget.open);
        if (e.currentTarget.open) setShown(true);
      }}
      onKeyDown={(e) => {
        if (e.key !== 'Escape' || !e.currentTarget.open) return;
        e.currentTarget.open = false;
        e.currentTarget.querySelector('summary')?.focus();
      }}
    >
      <summary className="a11y-toggle">
        {/* A person with open arms, in a ring: the sign of accessibility, in the text's colour. */}
        <svg className="a11y-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <circle cx="12" cy="12" r="11" fill="none" stroke="currentColor" strokeWidth="1.6" />
          <circle cx="12" cy="6" r="1.9" fill="currentColor" />
          <path fill="currentColor" d="M5.5 9l6.5 1.2L18.5 9v1.8l-4.4 1v2.7l1.6 5.5h-1.9L12 15.2 10.2 20H8.3l1.6-5.5v-2.7l-4.4-1z" />
        </svg>
        辅助浏览
      </summary>
      <div className="a11y-panel">{list}</div>
    </details>
  );
}

/** The list on the 无障碍说明 page, in that page's section about 辅助浏览. */
function Group({ children }: { children: ReactNode }) {
  return (
    <section className="a11y-page" aria-labelledby="a11y-page-title">
      <h3 id="a11y-page-title" className="a11y-title">
        在这里直接设置
      </h3>
      {children}
    </section>
  );
}
