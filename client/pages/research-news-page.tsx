/** 科研新闻 (category 18) and its sub-categories. */
import { CATEGORY } from '../../shared/constants.js';
import { ResearchNews } from '../components/research-news.js';
import { usePageData } from '../page-data-hooks.js';

export default function ResearchNewsPage() {
  const data = usePageData<'researchNews'>();
  return (
    <ResearchNews
      parent={{ id: CATEGORY.researchNews, name: '科研新闻' }}
      lead="课题立项、论文发表与科研合作的最新进展"
      data={data}
    />
  );
}
