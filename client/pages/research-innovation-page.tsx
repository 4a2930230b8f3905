/** 科研创新: the paged list of research items (category 15). */
import { CATEGORY } from '../../shared/constants.js';
import { CategoryList } from '../components/category-list.js';
import { categoriesOr, categoryTabs, orEmpty, RESEARCH_CATEGORIES } from '../components/site-sections.js';
import { useLayoutData, usePageData } from '../page-data-hooks.js';

export default function ResearchInnovationPage() {
  const list = usePageData<'researchInnovation'>();
  const layout = orEmpty(useLayoutData());
  return (
    <CategoryList
      title="科研创新"
      lead="以临床问题为导向的眼科科研与技术创新"
      trail={[{ label: '学术研究' }]}
      tabs={categoryTabs(categoriesOr(layout.researchCategories, RESEARCH_CATEGORIES), CATEGORY.researchInnovation)}
      tabsLabel="学术研究栏目"
      listTitle="科研成果"
      list={list}
    />
  );
}
