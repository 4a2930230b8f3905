/**
 * The header's state, apart from what it draws: which item's panel is open (hover after a delay,
 * focus at once, Escape to close), whether the phone menu is open, and whether the home page's
 * transparent header has turned solid. Navigation closes the panel and the menu.
 */
import { useCallback, useEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { useLocation } from 'react-router';
import { HEADER_HOVER_DELAY_MS, SCROLL_LISTENER_DELAY_MS, SOLID_HEADER_SCROLL_THRESHOLD_PX } from '../../shared/constants.js';
import { scrollContainer, scrollOffset } from '../scroll.js';
import type { PanelContent } from './header-panels.js';

/**
 * What a panel holds, drawn only while it is open (never on the server, on a phone or without
 * JavaScript): loaded when a panel is first asked for, to stay out of every page's first script.
 */
let loadedPanel: typeof PanelContent | undefined;

/** What a nav item hands to its `<li>` and its link. */
export interface ItemHandlers {
  onMouseEnter: () => void;
  onMouseLeave: () => void;
  onFocus: () => void;
  onBlur: (event: FocusEvent<HTMLLIElement>) => void;
  onKeyDown: (event: KeyboardEvent<HTMLLIElement>) => void;
  /** The item's link, kept to give it the focus back when Escape closes its panel. */
  setLink: (el: HTMLAnchorElement | null) => void;
}

/** The open panel (its item's index, or -1) and the menu, with the handlers that move them. */
export function useHeaderPanels() {
  const location = useLocation();
  const [active, setActive] = useState(-1);
  const [menuOpen, setMenuOpen] = useState(false);
  const hoverTimer = useRef<number | undefined>(undefined);
  const refocusing = useRef(false);
  const links = useRef<(HTMLAnchorElement | null)[]>([]);
  const toggle = useRef<HTMLButtonElement>(null);
  // A panel opens once what it holds is here: never empty.
  const [Panel, setPanel] = useState(() => loadedPanel);
  const loadPanel = () => {
    if (loadedPanel) return;
    import('./header-panels.js').then(
      (module) => setPanel(() => (loadedPanel = module.PanelContent)),
      (error: unknown) => console.error('the header panels could not be loaded', error),
    );
  };
  // Hover panels belong to the full bar; where the items sit behind the menu button, the menu opens them.
  const menuMode = () => toggle.current !== null && getComputedStyle(toggle.current).display !== 'none';

  const clearHover = useCallback(() => {
    if (hoverTimer.current !== undefined) {
      window.clearTimeout(hoverTimer.current);
      hoverTimer.current = undefined;
    }
  }, []);

  // Navigation closes the panel and the phone menu.
  const [shownKey, setShownKey] = useState(location.key);
  if (shownKey !== location.key) {
    setShownKey(location.key);
    setActive(-1);
    setMenuOpen(false);
  }
  useEffect(() => clearHover(), [location.key, clearHover]);
  useEffect(() => clearHover, [clearHover]);

  const handlers = (index: number): ItemHandlers => ({
    onMouseEnter: () => {
      if (menuMode()) return;
      loadPanel();
      clearHover();
      hoverTimer.current = window.setTimeout(() => {
        hoverTimer.current = undefined;
        setActive(index);
      }, HEADER_HOVER_DELAY_MS);
    },
    onMouseLeave: () => {
      clearHover();
      setActive(-1);
    },
    onFocus: () => {
      if (refocusing.current || menuMode()) return;
      loadPanel();
      clearHover();
      setActive(index);
    },
    onBlur: (event) => {
      if (event.currentTarget.contains(event.relatedTarget)) return;
      setActive((current) => (current === index ? -1 : current));
    },
    onKeyDown: (event) => {
      if (event.key !== 'Escape' || active !== index) return;
      event.preventDefault();
      clearHover();
      setActive(-1);
      refocusing.current = true;
      links.current[index]?.focus();
      refocusing.current = false;
    },
    setLink: (el) => {
      links.current[index] = el;
    },
  });

  const closeMenu = () => {
    setMenuOpen(false);
    toggle.current?.focus();
  };

  return { active, Panel, handlers, menuOpen, toggleMenu: () => setMenuOpen((open) => !open), closeMenu, toggle };
}

/** On the home page only: true once the page has scrolled past the threshold; the listener starts after a delay. */
export function useScrolledPastBanner(overBanner: boolean): boolean {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    if (!overBanner) return;
    const target = scrollContainer();
    const update = () => setScrolled(scrollOffset() > SOLID_HEADER_SCROLL_THRESHOLD_PX);
    let attached = false;
    const timer = window.setTimeout(() => {
      attached = true;
      target.addEventListener('scroll', update, { passive: true });
      update();
    }, SCROLL_LISTENER_DELAY_MS);
    return () => {
      window.clearTimeout(timer);
      if (attached) target.removeEventListener('scroll', update);
    };
  }, [overBanner]);
  return scrolled;
}
