/** The body of a category's list page: banner, sibling tabs, an optional filter row and the paged grid. */
import { Link } from 'react-router';
import type { ContentSummary, Page } from '../../shared/contract/entities.js';
import { ContentGrid } from './content-card.js';
import { PageBanner, type Crumb } from './page-banner.js';
import { SectionTabs, type TabLink } from './section-tabs.js';

interface CategoryListProps {
  title: string;
  lead?: string;
  trail: Crumb[];
  current?: string;
  tabs: TabLink[];
  tabsLabel: string;
  /** A second row of tabs inside the body (sub-categories). */
  filters?: TabLink[];
  listTitle: string;
  list: Page<ContentSummary>;
}

export function CategoryList({ title, lead, trail, current, tabs, tabsLabel, filters, listTitle, list }: CategoryListProps) {
  return (
    <>
      <PageBanner title={title} lead={lead} trail={trail} current={current} />
      <SectionTabs tabs={tabs} label={tabsLabel} />
      <div className="page-body soft">
        <div className="container">
          <div className="list-head">
            <h2 className="list-title">{listTitle}</h2>
            <p className="list-count">共 {list.total} 篇</p>
          </div>
          {filters && filters.length > 0 ? (
            <nav className="filter-tabs" aria-label="子分类">
              <ul>
                {filters.map((f) => (
                  <li key={f.to}>
                    <FilterLink tab={f} />
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <ContentGrid list={list} />
        </div>
      </div>
    </>
  );
}


function FilterLink({ tab }: { tab: TabLink }) {
  return (
    <Link to={tab.to} className="filter-link" aria-current={tab.current ? 'page' : undefined}>
      {tab.label}
    </Link>
  );
}
