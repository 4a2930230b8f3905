/**
 * 国际医院: the group's hospital(s) abroad (Sydney), each with the parts of a hospital's own page
 * (its facts, hours in its own time zone, departments, doctors and news), its highlights and text.
 */
import { Link } from 'react-router';
import { href } from '../../shared/site/href.js';
import { EmptyState } from '../components/content-card.js';
import { HospitalDoctors, HospitalHero, HospitalInfo, HospitalNews } from '../components/hospital-parts.js';
import { PageBanner } from '../components/page-banner.js';
import { RichText } from '../components/rich-text.js';
import { usePageData } from '../router-hooks.js';
import '../styles/hospitals.css';

export default function InternationalPage() {
  const { hospitals, at } = usePageData<'international'>();
  const first = hospitals[0]?.hospital;
  return (
    <>
      <PageBanner lead={first ? `${first.name} · ${first.country} ${first.city}` : undefined} />
      <div className="page-body soft">
        <div className="container">
          {hospitals.length === 0 ? <EmptyState /> : null}
          {hospitals.map((view, i) => {
            const h = view.hospital;
            return (
              <article key={h.id} id={`intl-${h.id}`} className="intl-hospital hospital-page" aria-labelledby={`intl-name-${h.id}`}>
                <HospitalHero
                  hospital={h}
                  eyebrow={`${h.country} · ${h.city}`}
                  heading="h2"
                  headingId={`intl-name-${h.id}`}
                  priority={i === 0}
                />
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
                <HospitalInfo hospital={h} abroad drawnAt={at} zoneOffset={view.zoneOffset} level={3} />
                <section className="card intl-text" aria-labelledby={`intl-about-${h.id}`}>
                  <h3 id={`intl-about-${h.id}`}>医院介绍</h3>
                  <RichText html={h.content} />
                  <p className="intl-aside-text">跨境就医咨询、预约与病历转诊，请致电医院或联系集团客服中心。</p>
                  <Link to={href('contact')} className="btn btn-ghost intl-contact">
                    联系我们
                  </Link>
                </section>
                <HospitalDoctors view={view} level={3} />
                <HospitalNews view={view} level={3} />
              </article>
            );
          })}
        </div>
      </div>
    </>
  );
}
