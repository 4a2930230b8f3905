/** 首页: banner, featured treatments, experts, hospitals, news by category; a section whose data cannot be read is left out. */
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { ContentSummary, InternationalHospital } from '../../shared/contract/entities.js';
import { categoryHref, contentHref, hospitalHref, href, sectionHref, telHref, treatmentHref } from '../../shared/site/href.js';
import { BannerCarousel } from '../components/carousel.js';
import { Address } from '../components/address.js';
import { ContentRow } from '../components/content-row.js';
import { ContentImage, designSizes, standardSizes } from '../components/content-image.js';
import { ExpertCard } from '../components/expert-card.js';
import { FirstScreenEnd } from '../components/first-screen-end.js';
import { SectionHead } from '../components/section-head.js';
import { StatsList } from '../components/stats-list.js';
import { orEmpty } from '../../shared/site/navigation.js';
import { useLayoutData, usePageData } from '../router-hooks.js';
import { useMeasurer, type Measurer, type Measures } from '../placeholders/measurer.js';
import { Typeset } from '../typeset/typeset.js';
import '../styles/home.css';
import '../styles/home-placeholders.css';

/** Rows of each news column under its lead. */
const NEWS_ROWS = 3;
/** Experts in the section's row. */
const EXPERTS_SHOWN = 4;

function InternationalFeature({ hospital }: { hospital: InternationalHospital }) {
  return (
    <article className="intl-feature">
      <ContentImage
        className="media"
        image={hospital.image}
        // As tall as the text beside it: drawn wider than its column.
        sizes={standardSizes('calc(100vw - 32px)', ['(max-width: 832px) calc(100vw - 57px)', '756px'], '41vw')}
        largeSizes="(max-width: 500px) calc(100vw - 32px), (max-width: 1169px) calc(100vw - 64px), 910px"
        widerThanBox
        alt={hospital.name}
        width={800}
        height={500}
      />
      <div className="intl-body">
        <p className="eyebrow-pill">
          国际医院 · {hospital.country} {hospital.city}
        </p>
        <h3>
          <Link to={hospitalHref({ id: hospital.id, abroad: true })}>
            <Typeset text={hospital.name} />
          </Link>
        </h3>
        <p className="intl-summary">
          <Typeset text={hospital.summary} />
        </p>
        {hospital.highlights.length > 0 ? (
          <ul className="check-list">
            {hospital.highlights.slice(0, 4).map((h) => (
              <li key={h}>{h}</li>
            ))}
          </ul>
        ) : null}
        <Link to={hospitalHref({ id: hospital.id, abroad: true })} className="btn btn-primary">
          了解{hospital.name}
        </Link>
      </div>
    </article>
  );
}

function NewsColumn({ id, name, items }: { id: number; name: string; items: ContentSummary[] }) {
  const [first, ...rest] = items;
  const more = categoryHref(id);
  return (
    <section className="news-column" aria-labelledby={`news-col-${id}`}>
      <div className="news-column-head">
        <h3 id={`news-col-${id}`}>{name}</h3>
        {more ? (
          <Link to={more} className="more-link">
            更多{name}
          </Link>
        ) : null}
      </div>
      {first ? (
        <article className="news-lead">
          <ContentImage
            className="media"
            image={first.cover}
            sizes={standardSizes('calc(100vw - 72px)', ['(max-width: 1056px) calc(40vw - 50px)', 'min(33.34vw - 87px, 337px)'], '20vw')}
            width={800}
            height={500}
          />
          {first.date ? <time dateTime={first.date}>{first.date}</time> : null}
          <h4>
            <Link to={contentHref(first)} className="stretched-link">
              <Typeset text={first.title} />
            </Link>
          </h4>
        </article>
      ) : (
        <p className="empty-state">暂无{name}。</p>
      )}
      {rest.length > 0 ? (
        <ul className="content-rows">
          {rest.slice(0, NEWS_ROWS).map((item) => (
            <ContentRow key={item.id} item={item} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

/**
 * A section of the home page: its heading block, then what it shows. Below the first screen, it
 * holds a height estimated from what `measure` counts until drawn (home-placeholders.css, by `kind`).
 */
function HomeSection({
  id,
  kind,
  measure,
  soft,
  eyebrow,
  title,
  lead,
  children,
}: {
  id: string;
  kind: 'treatments' | 'experts' | 'hospitals' | 'news';
  measure: (measurer: Measurer) => Measures;
  soft?: boolean;
  eyebrow: string;
  title: string;
  lead: string;
  children: ReactNode;
}) {
  const measurer = useMeasurer();
  return (
    // The server's counts, kept as it wrote them when the browser hydrates (measurer.ts).
    <section
      className={`home-section section-${kind}${soft ? ' soft' : ''}`}
      style={measurer && { ...measurer.head(title, lead), ...measure(measurer) }}
      suppressHydrationWarning
      aria-labelledby={id}
    >
      <div className="container">
        <SectionHead id={id} eyebrow={eyebrow} title={title} lead={lead} />
        {children}
      </div>
    </section>
  );
}

function MoreLink({ to, label }: { to: string; label: string }) {
  return (
    <div className="section-more">
      <Link to={to} className="btn btn-ghost">
        {label}
      </Link>
    </div>
  );
}

export default function HomePage() {
  const { banners, treatments, expertGroup, newsMedia, hospitals, international } = usePageData<'home'>();
  const { intro } = orEmpty(useLayoutData());

  return (
    <div className="home">
      <h1 className="sr-only">{intro?.name ?? '首页'}</h1>
      <BannerCarousel banners={banners} />

      {intro && intro.stats.length > 0 ? (
        <section className="home-stats" aria-label="集团概况">
          <StatsList stats={intro.stats} className="container" />
        </section>
      ) : null}
      {/* The figures overlap the carousel's foot and stand in the first screen: the first band ends after them. */}
      <FirstScreenEnd />

      {treatments.length > 0 ? (
        <HomeSection
          id="home-treatments"
          kind="treatments"
          measure={(m) => m.treatments(treatments)}
          eyebrow="特色专科"
          title="特色治疗"
          lead="覆盖屈光、白内障、青光眼、眼底病等专科方向，为不同年龄段患者提供个性化诊疗方案。"
        >
          <ul className="treatment-grid grid4">
            {treatments.map((t) => (
              <li key={t.id} className="treatment-tile">
                <ContentImage image={t.icon} sizes={designSizes(76, '56px')} width={76} height={76} />
                <h3>
                  <Link to={treatmentHref(t.title)} className="stretched-link">
                    <Typeset text={t.title} />
                  </Link>
                </h3>
                <p>
                  <Typeset text={t.summary} />
                </p>
              </li>
            ))}
          </ul>
        </HomeSection>
      ) : null}

      {expertGroup ? (
        <HomeSection
          id="home-experts"
          kind="experts"
          measure={(m) => m.experts(expertGroup.experts.slice(0, EXPERTS_SHOWN))}
          soft
          eyebrow="名医荟萃"
          title={expertGroup.title}
          lead={expertGroup.summary}
        >
          <div className="expert-grid grid4">
            {expertGroup.experts.slice(0, EXPERTS_SHOWN).map((e) => (
              <ExpertCard key={e.id} expert={e} inRow />
            ))}
          </div>
          <MoreLink to={href('experts')} label="查看全部专家" />
        </HomeSection>
      ) : null}

      {hospitals.length + international.length > 0 ? (
        <HomeSection
          id="home-hospitals"
          kind="hospitals"
          measure={(m) => m.hospitals(hospitals, international)}
          eyebrow="医院网络"
          title="国内医院与国际医院"
          lead="立足国内、连接海外，多家院区统一诊疗标准与质量管理。"
        >
          <ul className="hospital-tiles grid3">
            {hospitals.map((h) => (
              <li key={h.id} className="hospital-tile">
                <ContentImage image={h.image} sizes={designSizes(160, '104px')} width={800} height={500} />
                <div>
                  <h3>
                    <Link to={hospitalHref(h)}>
                      <Typeset text={h.name} />
                    </Link>
                  </h3>
                  <p>
                    <Address text={h.address} />
                  </p>
                  <p className="tile-phone">
                    电话：<a href={telHref(h.phone)}>{h.phone}</a>
                  </p>
                </div>
              </li>
            ))}
          </ul>
          <MoreLink to={href('domesticHospitals')} label="查看国内医院" />
          {international.map((h) => (
            <InternationalFeature key={h.id} hospital={h} />
          ))}
        </HomeSection>
      ) : null}

      {newsMedia ? (
        <HomeSection
          id="home-news"
          kind="news"
          measure={(m) => m.news(newsMedia.categories, NEWS_ROWS)}
          soft
          eyebrow="新闻动态"
          title="新闻媒体"
          lead="集团动态、各院新闻与媒体报道。"
        >
          <div className="news-columns grid3">
            {newsMedia.categories.map((c) => (
              <NewsColumn key={c.id} id={c.id} name={c.name} items={c.items} />
            ))}
          </div>
          <MoreLink to={sectionHref('news')} label="进入新闻中心" />
        </HomeSection>
      ) : null}
    </div>
  );
}
