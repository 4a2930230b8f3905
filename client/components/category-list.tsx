/** The body of a category's page: banner, the section's tabs, an optional row of sub-categories and the paged cards. */
import type { ContentSummary, Page } from '../../shared/contract/entities.js';
import type { Crumb } from '../../shared/site/navigation.js';
import { ContentGrid } from './content-card.js';
import { ListBlock } from './list-block.js';
import { PageBanner } from './page-banner.js';
import { SectionTabs, TabRow, type TabLink } from './section-tabs.js';

interface CategoryListProps {
  list: Page<ContentSummary>;
  listTitle: string;
  /** Sub-categories, as a second row of tabs inside the body. */
  filters?: TabLink[];
  /** The section tab to mark, where the route shows one of several categories. */
  currentTab?: string | undefined;
  /** Breadcrumbs after the section's, and the last one. */
  trail?: Crumb[];
  current?: string | undefined;
  /** How the items are counted (共 9 篇; devices 共 6 台), and whether their cards show a date (a device has none to show). */
  unit?: '篇' | '台';
  dated?: boolean;
}

export function CategoryList({ list, listTitle, filters, currentTab, trail, current, unit = '篇', dated = true }: CategoryListProps) {
  return (
    <>
      <PageBanner trail={trail} current={current} />
      <SectionTabs current={currentTab} />
      <div className="page-body soft">
        <div className="container">
          <ListBlock
            title={listTitle}
            aside={`共 ${list.total} ${unit}`}
            filters={filters ? <TabRow tabs={filters} label="子分类" className="filter-tabs" linkClass="filter-link" /> : null}
            empty={list.items.length === 0}
          >
            <ContentGrid list={list} dated={dated} />
          </ListBlock>
        </div>
      </div>
    </>
  );
}
