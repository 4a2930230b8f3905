/** 治疗设备: the paged list of treatment equipment (content items of category 7). */
import { CATEGORY } from '../../shared/constants.js';
import { CategoryList } from '../components/category-list.js';
import { categoriesOr, categoryTabs, orEmpty, SERVICE_CATEGORIES } from '../components/site-sections.js';
import { useLayoutData, usePageData } from '../page-data-hooks.js';

export default function EquipmentPage() {
  const list = usePageData<'equipment'>();
  const layout = orEmpty(useLayoutData());
  return (
    <CategoryList
      title="治疗设备"
      lead="引进国际先进的眼科诊疗设备，让诊断更精准、手术更安全"
      trail={[{ label: '患者服务' }]}
      tabs={categoryTabs(categoriesOr(layout.patientCategories, SERVICE_CATEGORIES), CATEGORY.equipment)}
      tabsLabel="患者服务栏目"
      listTitle="诊疗设备"
      list={list}
    />
  );
}
