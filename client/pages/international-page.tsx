/** 国际医院: the group's hospital(s) abroad (Sydney), with highlights, departments and text. */
import { Link } from 'react-router';
import { href, telHref } from '../../shared/site/href.js';
import { EmptyState } from '../components/content-card.js';
import { ContentImage } from '../components/content-image.js';
import { FactList } from '../components/fact-list.js';
import { MapLink } from '../components/map-link.js';
import { PageBanner } from '../components/page-banner.js';
import { RichText } from '../components/rich-text.js';
import { usePageData } from '../router-hooks.js';
import { Typeset } from '../typeset/typeset.js';
import '../styles/hospitals.css';
import { Address } from '../components/address.js';

export default function InternationalPage() {
  const hospitals = usePageData<'international'>();
  const first = hospitals[0];
  return (
    <>
      <PageBanner lead={first ? `${first.name} · ${first.country} ${first.city}` : undefined} />
      <div className="page-body soft">
        <div className="container">
          {hospitals.length === 0 ? <EmptyState /> : null}
          {hospitals.map((h, i) => (
            <article key={h.id} className="intl-hospital" aria-labelledby={`intl-${h.id}`}>
              <div className="card intl-hero">
                <ContentImage
                  className="media"
                  image={h.image}
                  // As tall as the text beside it: drawn wider than its column.
                  sizes="(max-width: 500px) calc(100vw - 32px), 39vw"
                  largeSizes="(max-width: 500px) calc(100vw - 32px), (max-width: 1484px) calc(100vw - 64px), 848px"
                  alt={h.name}
                  width={800}
                  height={500}
                  priority={i === 0}
                />
                <div className="intl-hero-body">
                  <p className="eyebrow-pill">
                    {h.country} · {h.city}
                  </p>
                  <h2 id={`intl-${h.id}`}>
                    <Typeset text={h.name} />
                  </h2>
                  <p className="intl-lead">
                    <Typeset text={h.summary} />
                  </p>
                  <FactList
                    facts={[
                      ['创立', `${h.founded} 年`],
                      [
                        '地址',
                        <>
                          <Address text={h.address} />
                          {h.mapUrl ? <MapLink href={h.mapUrl} place={h.name} /> : null}
                        </>,
                      ],
                      ['电话', <a href={telHref(h.phone)}>{h.phone}</a>],
                    ]}
                  />
                </div>
              </div>
              {h.highlights.length > 0 ? (
                <section className="intl-highlights" aria-labelledby={`intl-hl-${h.id}`}>
                  <h3 id={`intl-hl-${h.id}`}>医院特色</h3>
                  <ul>
                    {h.highlights.map((text, i) => (
                      <li key={text} className="card">
                        <span className="hl-index" aria-hidden="true">
                          {String(i + 1).padStart(2, '0')}
                        </span>
                        {text}
                      </li>
                    ))}
                  </ul>
                </section>
              ) : null}
              <div className="intl-content">
                <section className="card intl-text" aria-labelledby={`intl-about-${h.id}`}>
                  <h3 id={`intl-about-${h.id}`}>医院介绍</h3>
                  <RichText html={h.content} />
                </section>
                <aside className="card intl-aside" aria-labelledby={`intl-dept-${h.id}`}>
                  <h3 id={`intl-dept-${h.id}`}>诊疗科室</h3>
                  <ul className="chips">
                    {h.departments.map((d) => (
                      <li key={d}>{d}</li>
                    ))}
                  </ul>
                  <p className="intl-aside-text">跨境就医咨询、预约与病历转诊，请联系集团客服中心。</p>
                  <Link to={href('contact')} className="btn btn-primary">
                    联系我们
                  </Link>
                </aside>
              </div>
            </article>
          ))}
        </div>
      </div>
    </>
  );
}
