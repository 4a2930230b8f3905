/** 教育新闻 / 科研新闻: a parent research category with its sub-category tabs and the list. */
import type { ContentSummary, Page, SubCategory } from '../../shared/contract/entities.js';
import { categoryHref } from '../../shared/links.js';
import { CategoryList } from './category-list.js';
import { categoriesOr, categoryTabs, orEmpty, RESEARCH_CATEGORIES } from './site-sections.js';
import { useLayoutData } from '../page-data-hooks.js';

interface ResearchNewsProps {
  parent: { id: number; name: string };
  lead: string;
  data: { children: SubCategory[]; list: Page<ContentSummary>; sub: number };
}

export function ResearchNews({ parent, lead, data }: ResearchNewsProps) {
  const layout = orEmpty(useLayoutData());
  const current = data.children.find((c) => c.id === data.sub);
  const filters = [
    { label: '全部', to: categoryHref(parent.id, parent.name), current: data.sub === parent.id },
    ...data.children.map((c) => ({ label: c.name, to: categoryHref(c.id, c.name), current: c.id === data.sub })),
  ];
  return (
    <CategoryList
      title={parent.name}
      lead={lead}
      trail={[{ label: '学术研究' }, ...(current ? [{ label: parent.name, to: categoryHref(parent.id, parent.name) }] : [])]}
      current={current?.name ?? parent.name}
      tabs={categoryTabs(categoriesOr(layout.researchCategories, RESEARCH_CATEGORIES), parent.id)}
      tabsLabel="学术研究栏目"
      filters={filters}
      listTitle={current?.name ?? `全部${parent.name}`}
      list={data.list}
    />
  );
}
