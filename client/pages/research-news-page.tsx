/** 教育新闻 and 科研新闻: a research category's items, with its sub-categories as filters. */
import { CategoryList } from '../components/category-list.js';
import { categoryHref, href } from '../../shared/site/href.js';
import { ROUTES } from '../../shared/site/route-table.js';
import { useCurrentRoute, usePageData } from '../router-hooks.js';

export default function ResearchNewsPage() {
  const { children, list, sub } = usePageData<'educationNews' | 'researchNews'>();
  const route = useCurrentRoute() as 'educationNews' | 'researchNews';
  const parent = ROUTES[route];
  const selected = children.find((c) => c.id === sub);
  const filters = [
    { label: '全部', to: href(route), current: selected === undefined },
    ...children.map((c) => ({ label: c.name, to: categoryHref(c.id) ?? href(route, { sub: c.id }), current: c.id === sub })),
  ];
  return (
    <CategoryList
      list={list}
      listTitle={selected?.name ?? `全部${parent.title}`}
      filters={filters}
      trail={selected ? [{ label: parent.title, to: href(route) }] : []}
      current={selected?.name}
    />
  );
}
