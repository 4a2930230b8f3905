/** 专家团队: the paged grid of the group's experts. */
import { EmptyState } from '../components/content-card.js';
import { ExpertCard } from '../components/expert-card.js';
import { PageBanner } from '../components/page-banner.js';
import { Pagination } from '../components/pagination.js';
import { usePageData } from '../router-hooks.js';
import '../styles/experts.css';

export default function ExpertsPage() {
  const list = usePageData<'experts'>();
  return (
    <>
      <PageBanner title="专家团队" lead="汇聚眼科各亚专业的资深专家，守护每一双眼睛" />
      <div className="page-body soft">
        <div className="container">
          <div className="list-head">
            <h2 className="list-title">专家介绍</h2>
            <p className="list-count">共 {list.total} 位专家</p>
          </div>
          {list.items.length === 0 ? (
            <EmptyState />
          ) : (
            <div className="expert-grid grid4">
              {list.items.map((e, i) => (
                <ExpertCard key={e.id} expert={e} priority={i === 0} />
              ))}
            </div>
          )}
          <Pagination total={list.total} page={list.page} pageSize={list.pageSize} />
        </div>
      </div>
    </>
  );
}
