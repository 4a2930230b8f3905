/** 报道详情: a news item or media report. */
import { ArticleView } from '../components/article-view.js';
import { usePageData } from '../page-data-hooks.js';

export default function ReportDetailPage() {
  const item = usePageData<'reportDetail'>();
  return <ArticleView item={item} pageTitle="报道详情" />;
}
