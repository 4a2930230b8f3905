/** A section's pages or categories as a row of tabs, the current one marked. */
import { Link, useLocation } from 'react-router';
import { routeAt } from '../href.js';
import { orEmpty, sectionTabs } from '../navigation.js';
import { SECTIONS } from '../route-table.js';
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
  if (tabs.length === 0) return null;
  return (
    <nav className={className} aria-label={label}>
      <ul>
        {tabs.map((tab) => (
          <li key={tab.to}>
            <Link to={tab.to} className={linkClass} aria-current={tab.current ? 'page' : undefined}>
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
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
