/** 科普知识: the paged list of health-education articles (category 6). */
import { CATEGORY } from '../../shared/constants.js';
import { CategoryList } from '../components/category-list.js';
import { categoriesOr, categoryTabs, orEmpty, SERVICE_CATEGORIES } from '../components/site-sections.js';
import { useLayoutData, usePageData } from '../page-data-hooks.js';

export default function KnowledgePage() {
  const list = usePageData<'knowledge'>();
  const layout = orEmpty(useLayoutData());
  return (
    <CategoryList
      title="科普知识"
      lead="护眼常识与常见眼病的预防、识别和治疗"
      trail={[{ label: '患者服务' }]}
      tabs={categoryTabs(categoriesOr(layout.patientCategories, SERVICE_CATEGORIES), CATEGORY.knowledge)}
      tabsLabel="患者服务栏目"
      listTitle="科普文章"
      list={list}
    />
  );
}
