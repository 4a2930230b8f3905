/** 教育新闻 (category 17) and its sub-categories. */
import { CATEGORY } from '../../shared/constants.js';
import { ResearchNews } from '../components/research-news.js';
import { usePageData } from '../page-data-hooks.js';

export default function EducationNewsPage() {
  const data = usePageData<'educationNews'>();
  return (
    <ResearchNews
      parent={{ id: CATEGORY.educationNews, name: '教育新闻' }}
      lead="住院医师规范化培训、继续教育与患者健康教育"
      data={data}
    />
  );
}
