/** 国内医院: the group's hospitals in China and the paged hospital news (category 20). */
import { Link } from 'react-router';
import { CATEGORY } from '../../shared/constants.js';
import { href } from '../../shared/site/href.js';
import { ContentRow } from '../components/content-row.js';
import { ListBlock } from '../components/list-block.js';
import { HospitalCard } from '../components/hospital-card.js';
import { PageBanner } from '../components/page-banner.js';
import { Pagination } from '../components/pagination.js';
import { usePageData } from '../router-hooks.js';
import '../styles/hospitals.css';

export default function DomesticHospitalsPage() {
  const { hospitals, news } = usePageData<'domesticHospitals'>();
  return (
    <>
      <PageBanner />
      <section className="page-body soft" aria-labelledby="hospitals-title">
        <div className="container">
          <ListBlock title="院区分布" titleId="hospitals-title" aside={`共 ${hospitals.length} 家医院`} empty={hospitals.length === 0}>
            <div className="hospital-grid grid3 fill">
              {hospitals.map((h, i) => (
                <HospitalCard key={h.id} hospital={h} priority={i === 0} />
              ))}
            </div>
          </ListBlock>
        </div>
      </section>
      <section className="page-body" aria-labelledby="hospital-news-title">
        {/* The same column as the hospitals above: one left edge on the page. */}
        <div className="container">
          <ListBlock
            title="医院新闻"
            titleId="hospital-news-title"
            aside={
              <Link className="more-link" to={href('news', { category: CATEGORY.hospitalNews })}>
                进入医院新闻栏目
              </Link>
            }
            empty={news.items.length === 0}
          >
            <ul className="content-rows large">
              {news.items.map((item) => (
                <ContentRow key={item.id} item={item} />
              ))}
            </ul>
          </ListBlock>
          <Pagination total={news.total} page={news.page} pageSize={news.pageSize} />
        </div>
      </section>
    </>
  );
}
