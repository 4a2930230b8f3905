/**
 * The fixed site header (docs/product/header-and-footer.md): a top bar with the booking line and
 * the large-text switch, then the logo, nine items, hover panels and the booking button;
 * transparent over the home banner until the page scrolls; a menu button where the items do not fit.
 * Its state (panels, menu, scrolling) is in header-state.ts.
 */
import { Link, useLocation, useRouteLoaderData } from 'react-router';
import { PANEL_HEIGHT_DEFAULT_PX, PANEL_HEIGHT_PATIENT_SERVICES_PX } from '../../shared/constants.js';
import { bookingHref, sectionHref, telHref } from '../../shared/site/href.js';
import { orEmpty, sectionLinks } from '../../shared/site/navigation.js';
import { SECTIONS, type SectionKey } from '../../shared/site/route-table.js';
import { useCurrentSection, useLayoutData } from '../router-hooks.js';
import { ContentImage, designSizes } from './content-image.js';
import type { PanelContent } from './header-panels.js';
import { useHeaderPanels, useScrolledPastBanner, type ItemHandlers } from './header-state.js';
import { SearchBox, SearchEntry } from './search-entry.js';
import { TextSizeSwitch } from './text-size-prompt.js';
import { A11yToolbar } from './a11y-toolbar.js';

type Layout = ReturnType<typeof orEmpty>;

/** The header's nine items, one per section, in the route table's order. */
const NAV_ITEMS = (Object.keys(SECTIONS) as SectionKey[]).map((section) => ({
  section,
  label: SECTIONS[section].label,
  href: sectionHref(section),
  panel: SECTIONS[section].panel,
}));

type NavItemData = (typeof NAV_ITEMS)[number];

export function Header() {
  const layout = orEmpty(useLayoutData());
  const location = useLocation();
  // The home page may be transparent over its banner; not when it failed and shows an error.
  const homeData: unknown = useRouteLoaderData('home');
  const overBanner = location.pathname === '/' && homeData != null;
  const scrolled = useScrolledPastBanner(overBanner);
  const current = useCurrentSection();
  const { active, Panel, handlers, menuOpen, toggleMenu, closeMenu, toggle } = useHeaderPanels();

  const solid = !overBanner || scrolled || NAV_ITEMS[active]?.panel !== undefined || menuOpen;
  const bookingPhone = layout.contact?.booking?.phone ?? layout.contact?.phone;

  return (
    <header
      className="site-header"
      data-solid={String(solid)}
      data-menu={menuOpen ? 'open' : 'closed'}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && menuOpen) closeMenu();
      }}
    >
      <TopBar bookingPhone={bookingPhone} wechat={Boolean(layout.contact?.wechat)} />
      <div className="header-bar">
        <SiteLogo layout={layout} />
        <button type="button" ref={toggle} className="menu-toggle" aria-expanded={menuOpen} aria-controls="site-nav" onClick={toggleMenu}>
          <span className="menu-icon" aria-hidden="true" />
          {menuOpen ? '关闭' : '菜单'}
        </button>
        <nav aria-label="主导航" id="site-nav" className="site-nav">
          {menuOpen ? <SearchBox id="menu-search" /> : null}
          {menuOpen && bookingPhone ? <MenuBooking phone={bookingPhone} /> : null}
          {menuOpen ? <A11yToolbar place="menu" /> : null}
          <ul className="nav-list">
            {NAV_ITEMS.map((item, index) => (
              <NavItem
                key={item.label}
                item={item}
                layout={layout}
                active={active === index}
                Panel={Panel}
                current={item.section === current}
                menuOpen={menuOpen}
                on={handlers(index)}
              />
            ))}
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

/** The booking line, search, the phone's 预约, the WeChat link and the text size. */
function TopBar({ bookingPhone, wechat }: { bookingPhone: string | undefined; wechat: boolean }) {
  return (
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
          {wechat ? (
            <a className="top-link top-wechat" href="#site-wechat">
              微信公众号
            </a>
          ) : null}
          <TextSizeSwitch />
          <A11yToolbar place="bar" />
        </div>
      </div>
    </div>
  );
}

function SiteLogo({ layout }: { layout: Layout }) {
  const name = layout.intro?.name ?? layout.contact?.groupName;
  return (
    <Link to="/" className="site-logo">
      {layout.intro?.logo ? (
        <ContentImage className="logo-mark" image={layout.intro.logo} sizes={designSizes(48, '36px')} width={48} height={48} />
      ) : null}
      {/* Without content there is no name to show: the link still says where it goes. */}
      <span className="logo-name">{name ?? '返回首页'}</span>
    </Link>
  );
}

interface NavItemProps {
  item: NavItemData;
  layout: Layout;
  active: boolean;
  current: boolean;
  menuOpen: boolean;
  /** What a panel holds, once loaded (header-state.ts). */
  Panel: typeof PanelContent | undefined;
  on: ItemHandlers;
}

/** One of the nine items: its link, in the open menu its section's pages, and its hover panel. */
function NavItem({ item, layout, active, current, menuOpen, Panel, on: { setLink, ...events } }: NavItemProps) {
  const open = item.panel !== undefined && active && Panel !== undefined;
  const panelId = item.panel ? `panel-${item.panel}` : undefined;
  return (
    <li className="nav-item" data-active={active ? 'true' : undefined} {...events}>
      <Link
        to={item.href}
        className="nav-link"
        ref={setLink}
        aria-current={current ? 'true' : undefined}
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
          style={{ maxHeight: item.panel === 'services' ? PANEL_HEIGHT_PATIENT_SERVICES_PX : PANEL_HEIGHT_DEFAULT_PX }}
        >
          <div className={`panel-inner panel-${item.panel}-inner`}>
            {/* Drawn only while open: a closed panel is hidden (and never shown on
                phones or without JavaScript), so its links, texts and pictures would
                only weigh on every page's HTML and hydration. */}
            {open ? <Panel section={item.section} layout={layout} /> : null}
          </div>
        </div>
      ) : null}
    </li>
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

function MenuLinks({ section, layout }: { section: SectionKey; layout: Layout }) {
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
