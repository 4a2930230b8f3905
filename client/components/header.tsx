/**
 * The fixed site header (docs/product/header-and-footer.md): a top bar with the booking line and
 * the large-text switch, then the logo, nine items, hover panels and the booking button;
 * transparent over the home banner until the page scrolls; a menu button where the items do not fit.
 */
import { useCallback, useEffect, useRef, useState, type FocusEvent, type KeyboardEvent } from 'react';
import { Link, useLocation, useRouteLoaderData } from 'react-router';
import {
  HEADER_HOVER_DELAY_MS,
  PANEL_HEIGHT_DEFAULT_PX,
  PANEL_HEIGHT_PATIENT_SERVICES_PX,
  SCROLL_LISTENER_DELAY_MS,
  SOLID_HEADER_SCROLL_THRESHOLD_PX,
} from '../../shared/constants.js';
import { bookingHref, sectionHref, telHref } from '../../shared/site/href.js';
import { orEmpty, sectionLinks } from '../../shared/site/navigation.js';
import { SECTIONS, type SectionKey } from '../../shared/site/route-table.js';
import { useCurrentSection, useLayoutData } from '../router-hooks.js';
import { scrollContainer, scrollOffset } from '../scroll.js';
import { ContentImage, designSizes } from './content-image.js';
import { PanelContent } from './header-panels.js';
import { SearchBox, SearchEntry } from './search-entry.js';
import { TextSizeSwitch } from './text-size-prompt.js';
import { A11yToolbar } from './a11y-toolbar.js';

/** The header's nine items, one per section, in the route table's order. */
const NAV_ITEMS = (Object.keys(SECTIONS) as SectionKey[]).map((section) => ({
  section,
  label: SECTIONS[section].label,
  href: sectionHref(section),
  panel: SECTIONS[section].panel,
}));

export function Header() {
  const layout = orEmpty(useLayoutData());
  const location = useLocation();
  // The home page may be transparent over its banner; not when it failed and shows an error.
  const homeData: unknown = useRouteLoaderData('home');
  const overBanner = location.pathname === '/' && homeData != null;
  const current = useCurrentSection();

  const [active, setActive] = useState(-1);
  const [scrolled, setScrolled] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const hoverTimer = useRef<number | undefined>(undefined);
  const refocusing = useRef(false);
  const links = useRef<(HTMLAnchorElement | null)[]>([]);
  const toggle = useRef<HTMLButtonElement>(null);
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

  // Home only: solid once scrolled past the threshold; the listener starts after a delay.
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

  const activePanel = NAV_ITEMS[active]?.panel;
  const solid = !overBanner || scrolled || activePanel !== undefined || menuOpen;

  const onEnter = (index: number) => {
    if (menuMode()) return;
    clearHover();
    hoverTimer.current = window.setTimeout(() => {
      hoverTimer.current = undefined;
      setActive(index);
    }, HEADER_HOVER_DELAY_MS);
  };

  const onLeave = () => {
    clearHover();
    setActive(-1);
  };

  const onFocus = (index: number) => {
    if (refocusing.current || menuMode()) return;
    clearHover();
    setActive(index);
  };

  const onBlur = (index: number, event: FocusEvent<HTMLLIElement>) => {
    if (event.currentTarget.contains(event.relatedTarget)) return;
    setActive((current) => (current === index ? -1 : current));
  };

  const onKeyDown = (index: number, event: KeyboardEvent<HTMLLIElement>) => {
    if (event.key !== 'Escape' || active !== index) return;
    event.preventDefault();
    clearHover();
    setActive(-1);
    refocusing.current = true;
    links.current[index]?.focus();
    refocusing.current = false;
  };

  const closeMenu = () => {
    setMenuOpen(false);
    toggle.current?.focus();
  };

  const name = layout.intro?.name ?? layout.contact?.groupName;
  const contact = layout.contact;
  const bookingPhone = contact?.booking?.phone ?? contact?.phone;

  return (
    <header
      className="site-header"
      data-solid={String(solid)}
      data-menu={menuOpen ? 'open' : 'closed'}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && menuOpen) closeMenu();
      }}
    >
      <div className="top-bar">
        <div className="top-bar-inner">
          {bookingPhone ? (
            <a className="top-hotline" href={telHref(bookingPhone)}>
              <span className="top-hotline-label">预约咨询</span>
              <span className="top-hotline-number">{bookingPhone}</span>
            </a>
          ) : (
            <span />
          )}
          <div className="top-actions">
            <SearchEntry />
            {/* On a phone, where the main bar has no room for the booking button. */}
            {bookingPhone ? (
              <Link className="top-link top-book" to={bookingHref()}>
                预约
              </Link>
            ) : null}
            {contact?.wechat ? (
              <a className="top-link top-wechat" href="#site-wechat">
                微信公众号
              </a>
            ) : null}
            <TextSizeSwitch />
            <A11yToolbar place="bar" />
          </div>
        </div>
      </div>
      <div className="header-bar">
        <Link to="/" className="site-logo">
          {layout.intro?.logo ? (
            <ContentImage className="logo-mark" image={layout.intro.logo} sizes={designSizes(48, '36px')} width={48} height={48} />
          ) : null}
          {/* Without content there is no name to show: the link still says where it goes. */}
          <span className="logo-name">{name ?? '返回首页'}</span>
        </Link>
        <button
          type="button"
          ref={toggle}
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls="site-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span className="menu-icon" aria-hidden="true" />
          {menuOpen ? '关闭' : '菜单'}
        </button>
        <nav aria-label="主导航" id="site-nav" className="site-nav">
          {menuOpen ? <SearchBox id="menu-search" /> : null}
          {menuOpen && bookingPhone ? <MenuBooking phone={bookingPhone} /> : null}
          {menuOpen ? <A11yToolbar place="menu" /> : null}
          <ul className="nav-list">
            {NAV_ITEMS.map((item, index) => {
              const open = item.panel !== undefined && active === index;
              const panelId = item.panel ? `panel-${item.panel}` : undefined;
              return (
                <li
                  key={item.label}
                  className="nav-item"
                  data-active={active === index ? 'true' : undefined}
                  onMouseEnter={() => onEnter(index)}
                  onMouseLeave={onLeave}
                  onFocus={() => onFocus(index)}
                  onBlur={(e) => onBlur(index, e)}
                  onKeyDown={(e) => onKeyDown(index, e)}
                >
                  <Link
                    to={item.href}
                    className="nav-link"
                    ref={(el) => {
                      links.current[index] = el;
                    }}
                    aria-current={item.section === current ? 'true' : undefined}
                    aria-expanded={item.panel ? open : undefined}
                    aria-controls={panelId}
                  >
                    {item.label}
                  </Link>
                  {/* In the menu, a section's pages are listed under it (drawn only while the menu is open). */}
                  {menuOpen && item.panel ? <MenuLinks section={item.section} layout={layout} /> : null}
                  {item.panel ? (
                    <div
                      id={panelId}
                      className="header-panel"
                      data-open={String(open)}
                      hidden={!open}
                      // As tall as what it holds, never taller than the design's panel.
                      style={{
                        maxHeight: item.panel === 'services' ? PANEL_HEIGHT_PATIENT_SERVICES_PX : PANEL_HEIGHT_DEFAULT_PX,
                      }}
                    >
                      <div className={`panel-inner panel-${item.panel}-inner`}>
                        {/* Drawn only while open: a closed panel is hidden (and never shown on
                            phones or without JavaScript), so its links, texts and pictures would
                            only weigh on every page's HTML and hydration. */}
                        {open ? <PanelContent section={item.section} layout={layout} /> : null}
                      </div>
                    </div>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </nav>
        {bookingPhone ? (
          <Link className="book-btn" to={bookingHref()}>
            预约咨询
          </Link>
        ) : null}
      </div>
      {/* Dims the page under the open menu; a click on it closes the menu. */}
      {menuOpen ? <button type="button" className="menu-backdrop" aria-label="关闭菜单" tabIndex={-1} onClick={closeMenu} /> : null}
    </header>
  );
}

/** At the head of the open menu: call, or see how to book. */
function MenuBooking({ phone }: { phone: string }) {
  return (
    <div className="nav-booking">
      <a className="btn btn-ghost icon-phone" href={telHref(phone)}>
        致电 {phone}
      </a>
      <Link className="btn btn-primary" to={bookingHref()}>
        预约咨询
      </Link>
    </div>
  );
}

function MenuLinks({ section, layout }: { section: SectionKey; layout: ReturnType<typeof orEmpty> }) {
  const links = sectionLinks(section, layout);
  if (links.length < 2) return null;
  return (
    <ul className="nav-sub">
      {links.map((l) => (
        <li key={l.to}>
          <Link to={l.to} className="nav-sub-link">
            {l.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}
