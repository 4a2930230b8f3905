/** A row of links to sibling pages or categories, styled as tabs; the current one is marked. */
import { Link } from 'react-router';

export interface TabLink {
  label: string;
  to: string;
  current: boolean;
}

export function SectionTabs({ tabs, label }: { tabs: TabLink[]; label: string }) {
  if (tabs.length === 0) return null;
  return (
    <nav className="section-tabs" aria-label={label}>
      <ul>
        {tabs.map((tab) => (
          <li key={tab.to}>
            <Link to={tab.to} className="tab-link" aria-current={tab.current ? 'page' : undefined}>
              {tab.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
