/** 国内医院: the group's hospitals in China and the paged hospital news (category 20). */
import { Link } from 'react-router';
import { CATEGORY } from '../../shared/constants.js';
import { href } from '../href.js';
import { ContentRow, EmptyState } from '../components/content-card.js';
import { HospitalCard } from '../components/hospital-card.js';
import { PageBanner } from '../components/page-banner.js';
import { Pagination } from '../components/pagination.js';
import { usePageData } from '../router-hooks.js';
import '../styles/hospitals.css';

export default function DomesticHospitalsPage() {
  const { hospitals, news } = usePageData<'domesticHospitals'>();
  return (
    <>
      <PageBanner title="国内医院" lead="多家院区统一诊疗标准，就近享受优质眼科服务" />
      <section className="page-body soft" aria-labelledby="hospitals-title">
        <div className="container">
          <div className="list-head">
            <h2 className="list-title" id="hospitals-title">
              院区分布
            </h2>
            <p className="list-count">共 {hospitals.length} 家医院</p>
          </div>
          {hospitals.length === 0 ? (
            <EmptyState />
          ) : (
            <div className="hospital-grid grid3">
              {hospitals.map((h, i) => (
                <HospitalCard key={h.id} hospital={h} priority={i === 0} />
              ))}
            </div>
          )}
        </div>
      </section>
      <section className="page-body" aria-labelledby="hospital-news-title">
        <div className="container narrow">
          <div className="list-head">
            <h2 className="list-title" id="hospital-news-title">
              医院新闻
            </h2>
            <Link className="more-link" to={href('news', { category: CATEGORY.hospitalNews })}>
              进入医院新闻栏目
            </Link>
          </div>
          {news.items.length === 0 ? (
            <EmptyState />
          ) : (
            <ul className="content-rows large">
              {news.items.map((item) => (
                <ContentRow key={item.id} item={item} />
              ))}
            </ul>
          )}
          <Pagination total={news.total} page={news.page} pageSize={news.pageSize} />
        </div>
      </section>
    </>
  );
}
