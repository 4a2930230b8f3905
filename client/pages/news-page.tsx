/** 新闻媒体: the news of one category (19, 20 or 21, from the query), with tabs for the three. */
import { NEWS_PAGE_CATEGORIES } from '../../shared/page-data.js';
import { CategoryList } from '../components/category-list.js';
import { categoriesOr, categoryName, categoryTabs, NEWS_CATEGORIES, orEmpty } from '../components/site-sections.js';
import { useLayoutData, usePageData } from '../page-data-hooks.js';

export default function NewsPage() {
  const { categoryId, list } = usePageData<'news'>();
  const layout = orEmpty(useLayoutData());
  const categories = categoriesOr(layout.newsCategories, NEWS_CATEGORIES).filter((c) =>
    (NEWS_PAGE_CATEGORIES as readonly number[]).includes(c.id),
  );
  const name = categoryName(categoryId, layout) ?? '新闻';
  return (
    <CategoryList
      title="新闻媒体"
      lead="集团动态、各院新闻与媒体报道"
      trail={[{ label: '新闻媒体' }]}
      current={name}
      tabs={categoryTabs(categories, categoryId)}
      tabsLabel="新闻分类"
      listTitle={name}
      list={list}
    />
  );
}
