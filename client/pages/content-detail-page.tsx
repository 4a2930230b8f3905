/** 内容详情: an article, research item or equipment entry. */
import { ArticleView } from '../components/article-view.js';
import { usePageData } from '../page-data-hooks.js';

export default function ContentDetailPage() {
  const item = usePageData<'contentDetail'>();
  return <ArticleView item={item} pageTitle="内容详情" />;
}
