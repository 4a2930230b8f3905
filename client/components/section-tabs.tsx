/**
 * A section's pages or categories as a row of tabs, the current one marked. A row wider than the
 * screen scrolls sideways, and shows it: the current tab is brought into view, a fade covers each
 * end that has more, and a button there scrolls the row that way.
 */
import { type FocusEvent, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { routeAt } from '../../shared/site/href.js';
import { orEmpty, sectionTabs } from '../../shared/site/navigation.js';
import { SECTIONS } from '../../shared/site/route-table.js';
import { useCurrentSection, useLayoutData } from '../router-hooks.js';

export interface TabLink {
  label: string;
  to: string;
  current: boolean;
}

export function TabRow({
  tabs,
  label,
  className = 'section-tabs',
  linkClass = 'tab-link',
}: {
  tabs: TabLink[];
  label: string;
  className?: string;
  linkClass?: string;
}) {
  const row = useRef<HTMLUListElement>(null);
  const [more, setMore] = useState({ start: false, end: false });
  const shown = tabs.find((t) => t.current)?.to;
  useEffect(() => {
    const ul = row.current;
    if (!ul) return;
    const current = ul.querySelector<HTMLElement>('[aria-current]');
    if (current) ul.scrollLeft = current.offsetLeft - (ul.clientWidth - current.offsetWidth) / 2;
    const update = () => setMore({ start: ul.scrollLeft > 1, end: Math.ceil(ul.scrollLeft + ul.clientWidth) < ul.scrollWidth - 1 });
    update();
    ul.addEventListener('scroll', update, { passive: true });
    const resized = new ResizeObserver(update);
    resized.observe(ul);
    return () => {
      ul.removeEventListener('scroll', update);
      resized.disconnect();
    };
  }, [shown]);
  if (tabs.length === 0) return null;
  // Links are the keyboard's way along the row: each taking the focus is scrolled clear of the
  // scroll buttons (the row's scroll padding), which the browser's own focus scroll does not do
  // for a link already partly in view.
  const clearOfButtons = (e: FocusEvent) => {
    if (e.target instanceof HTMLElement) e.target.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  };
  const scrollButton = (side: 'start' | 'end') => (
    <button
      type="button"
      className={`tabs-scroll chevron ${side}${side === 'end' ? ' forward' : ''}`}
      aria-label={side === 'start' ? '向左滚动栏目' : '向右滚动栏目'}
      tabIndex={-1}
      hidden={!more[side]}
      onClick={() => row.current?.scrollBy({ left: (side === 'start' ? -0.7 : 0.7) * row.current.clientWidth, behavior: 'smooth' })}
    />
  );
  return (
    <nav className={className} aria-label={label} data-more-start={more.start || undefined} data-more-end={more.end || undefined}>
      {scrollButton('start')}
      <ul ref={row} onFocus={clearOfButtons}>
        {tabs.map((tab) => (
          <li key={tab.to}>
            <Link to={tab.to} className={linkClass} aria-current={tab.current ? 'page' : undefined}>
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
      {scrollButton('end')}
    </nav>
  );
}

/**
 * The current section's tabs. The tab of the page shown is marked: the one leading to `current`
 * when given (a page that shows one of several categories), else the one leading to this route.
 */
export function SectionTabs({ current }: { current?: string | undefined }) {
  const section = useCurrentSection();
  const layout = orEmpty(useLayoutData());
  const { pathname } = useLocation();
  if (!section || SECTIONS[section].links.length < 2) return null;
  const here = routeAt(pathname);
  const tabs = sectionTabs(section, layout, (to) => (current ? to === current : routeAt(to.split('?')[0]!) === here));
  return <TabRow tabs={tabs} label={`${SECTIONS[section].label}栏目`} />;
}
