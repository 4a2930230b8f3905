/** 科普知识, 治疗设备, 科研创新, 学术交流: the paged list of one category's items. */
import { CategoryList } from '../components/category-list.js';
import { useCurrentRoute, usePageData } from '../router-hooks.js';

type CategoryRoute = 'knowledge' | 'equipment' | 'researchInnovation' | 'academicExchange';

/** The heading over each list. */
const LIST_TITLES: Record<CategoryRoute, string> = {
  knowledge: '科普文章',
  equipment: '诊疗设备',
  researchInnovation: '科研成果',
  academicExchange: '交流动态',
};

export default function CategoryPage() {
  const list = usePageData<CategoryRoute>();
  const route = useCurrentRoute() as CategoryRoute;
  // Devices are counted in 台, and have no date to show.
  const devices = route === 'equipment';
  return <CategoryList list={list} listTitle={LIST_TITLES[route]} unit={devices ? '台' : '篇'} dated={!devices} />;
}
