/** 专家团队: the paged grid of the group's experts, with the finder (by hospital and specialty) above it. */
import { ExpertFinder } from '../components/expert-finder.js';
import { ListBlock } from '../components/list-block.js';
import { ExpertCard } from '../components/expert-card.js';
import { FirstScreenEnd } from '../components/first-screen-end.js';
import { PageBanner } from '../components/page-banner.js';
import { Pagination } from '../components/pagination.js';
import { usePageData } from '../router-hooks.js';
import '../styles/experts.css';

export default function ExpertsPage() {
  const { list, facets, hospital, specialty } = usePageData<'experts'>();
  const filtered = [hospital, specialty].filter(Boolean).join(' · ');
  return (
    <>
      {/* The finder is on a phone's first screen: the first frame waits for it too, or its chips,
          drawn while their names arrive, wrap and move (docs/decisions/042). */}
      <PageBanner endsFirstScreen={!facets} />
      <div className="page-body soft">
        <div className="container">
          <ListBlock
            title={filtered || '专家介绍'}
            aside={`共 ${list.total} 位专家`}
            filters={
              facets ? (
                <>
                  <ExpertFinder facets={facets} hospital={hospital} specialty={specialty} />
                  <FirstScreenEnd />
                </>
              ) : null
            }
            empty={list.items.length === 0}
          >
            <div className="expert-grid grid4 fill">
              {list.items.map((e, i) => (
                <ExpertCard key={e.id} expert={e} priority={i === 0} />
              ))}
            </div>
          </ListBlock>
          <Pagination total={list.total} page={list.page} pageSize={list.pageSize} />
        </div>
      </div>
    </>
  );
}
