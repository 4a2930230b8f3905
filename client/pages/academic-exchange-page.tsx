/** 学术交流: the paged list of academic exchange items (category 16). */
import { CATEGORY } from '../../shared/constants.js';
import { CategoryList } from '../components/category-list.js';
import { categoriesOr, categoryTabs, orEmpty, RESEARCH_CATEGORIES } from '../components/site-sections.js';
import { useLayoutData, usePageData } from '../page-data-hooks.js';

export default function AcademicExchangePage() {
  const list = usePageData<'academicExchange'>();
  const layout = orEmpty(useLayoutData());
  return (
    <CategoryList
      title="学术交流"
      lead="与国内外眼科同行携手，分享经验、共促发展"
      trail={[{ label: '学术研究' }]}
      tabs={categoryTabs(categoriesOr(layout.researchCategories, RESEARCH_CATEGORIES), CATEGORY.academicExchange)}
      tabsLabel="学术研究栏目"
      listTitle="交流动态"
      list={list}
    />
  );
}
