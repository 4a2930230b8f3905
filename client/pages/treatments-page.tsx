/** 特色治疗: every featured treatment in a side list; the selected one's picture, summary and text. */
import { Link } from 'react-router';
import { BookingPrompt } from '../components/booking-prompt.js';
import { PageBanner } from '../components/page-banner.js';
import { RichText } from '../components/rich-text.js';
import { SectionTabs } from '../components/section-tabs.js';
import { href, treatmentHref } from '../../shared/site/href.js';
import { ContentImage, designSizes, standardSizes } from '../components/content-image.js';
import { usePageData } from '../router-hooks.js';
import { Typeset } from '../typeset/typeset.js';
import '../styles/treatments.css';

export default function TreatmentsPage() {
  const { treatments, selected } = usePageData<'treatments'>();
  return (
    <>
      <PageBanner current={selected.title} />
      <SectionTabs />
      <div className="page-body soft">
        <div className="container treatment-layout">
          <nav className="treatment-nav" aria-label="特色治疗项目">
            <p className="treatment-nav-title">治疗项目</p>
            <ul>
              {treatments.map((t) => (
                <li key={t.id}>
                  <Link to={treatmentHref(t.title)} className="treatment-nav-link" aria-current={t.id === selected.id ? 'page' : undefined}>
                    <ContentImage image={t.icon} sizes={designSizes(36, '28px')} width={36} height={36} />
                    <span>{t.title}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <article className="card treatment-detail" aria-labelledby="treatment-title">
            <ContentImage
              className="treatment-image media"
              image={selected.image}
              sizes={standardSizes('calc(100vw - 32px)', ['(max-width: 832px) calc(100vw - 57px)', 'min(100vw - 358px, 915px)'], '54vw')}
              largeSizes="(max-width: 500px) calc(100vw - 32px), (max-width: 1169px) calc(100vw - 64px), (max-width: 1769px) calc(100vw - 404px), 1382px"
              alt={selected.title}
              width={800}
              height={500}
              priority
            />
            <div className="treatment-body">
              <h2 id="treatment-title">
                <Typeset text={selected.title} />
              </h2>
              <p className="treatment-summary">
                <Typeset text={selected.summary} />
              </p>
              <RichText html={selected.content} />
              <p className="treatment-experts">
                <Link to={href('experts')}>查看{selected.title}相关专家</Link>
              </p>
              <BookingPrompt question={`想了解${selected.title}是否适合您？`} />
            </div>
          </article>
        </div>
      </div>
    </>
  );
}
