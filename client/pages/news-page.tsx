/** 新闻媒体: the news of one category (19, 20 or 21, from the query), with tabs for the three. */
import { CategoryList } from '../components/category-list.js';
import { categoryHref } from '../../shared/site/href.js';
import { categoryName, orEmpty } from '../../shared/site/navigation.js';
import { ROUTES } from '../../shared/site/route-table.js';
import { useLayoutData, usePageData } from '../router-hooks.js';

export default function NewsPage() {
  const { categoryId, list } = usePageData<'news'>();
  const name = categoryName(categoryId, orEmpty(useLayoutData())) ?? ROUTES.news.title;
  return (
    <CategoryList
      list={list}
      listTitle={name}
      currentTab={categoryHref(categoryId)}
      trail={[{ label: ROUTES.news.title }]}
      current={name}
    />
  );
}
