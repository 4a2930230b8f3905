/**
 * The parts of a hospital's page (医院详情, and each hospital of 国际医院): its picture and facts with
 * the map and a call to book, its opening hours, departments, doctors with their clinic days, and
 * its news. A part the content does not give (hours, coordinates, doctors, news) is left out.
 */
import { useId } from 'react';
import { Link } from 'react-router';
import type { Hospital } from '../../shared/contract/entities.js';
import { hospitalTimeZone, type ZoneOffset } from '../../shared/opening-hours.js';
import type { HospitalView } from '../../shared/site/hospital-loaders.js';
import { telHref } from '../../shared/site/href.js';
import { Typeset } from '../typeset/typeset.js';
import { Address } from './address.js';
import { ContentImage, designSizes } from './content-image.js';
import { ExpertCard } from './expert-card.js';
import { FactList } from './fact-list.js';
import { MapLink } from './map-link.js';
import { OpeningHours } from './opening-hours.js';

/** Where it stands, as a phone's map app opens it (geo: URI, RFC 5870), named as a visitor reads it. */
function Coordinates({ geo, name }: { geo: NonNullable<Hospital['geo']>; name: string }) {
  const { latitude: lat, longitude: lng } = geo;
  const text = `${lat >= 0 ? '北纬' : '南纬'} ${Math.abs(lat).toFixed(4)}°，${lng >= 0 ? '东经' : '西经'} ${Math.abs(lng).toFixed(4)}°`;
  return (
    <a className="geo-link" href={`geo:${lat},${lng}?q=${lat},${lng}(${encodeURIComponent(name)})`}>
      {text}
      <span className="sr-only">（在地图应用中打开）</span>
    </a>
  );
}

interface HeroProps {
  hospital: Hospital;
  /** Above the name: its city (and country, abroad). */
  eyebrow: string;
  /** The page's own heading (医院详情), or one of the page's hospitals (国际医院). */
  heading: 'h1' | 'h2';
  headingId: string;
  priority?: boolean;
}

/**
 * The hero's picture: the card's width where it stands above the facts (under 66 em), else as tall
 * as the facts beside it (520 px in the fluid range, about 580 design px scaled) and so drawn half
 * as wide again as its column (941 of the design's 1920 px).
 */
const HERO_SIZES = designSizes(941, 'calc(100vw - 32px)', ['(max-width: 1056px) calc(100vw - 57px)', '833px']);

/** The hospital's picture beside its name, summary, address on the map, phone and the call to book. */
export function HospitalHero({ hospital: h, eyebrow, heading: Heading, headingId, priority }: HeroProps) {
  return (
    <div className="card hospital-hero">
      <ContentImage
        className="media"
        image={h.image}
        sizes={HERO_SIZES}
        largeSizes="(max-width: 500px) calc(100vw - 32px), (max-width: 1484px) calc(100vw - 64px), 848px"
        widerThanBox
        alt={h.name}
        width={800}
        height={500}
        priority={priority}
      />
      <div className="hospital-hero-body">
        <p className="eyebrow-pill">{eyebrow}</p>
        <Heading id={headingId}>
          <Typeset text={h.name} />
        </Heading>
        <p className="hospital-lead">
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
            ...(h.geo ? [['坐标', <Coordinates geo={h.geo} name={h.name} />] as const] : []),
            ['电话', <a href={telHref(h.phone)}>{h.phone}</a>],
          ]}
        />
        <a className="btn btn-primary icon-phone hospital-call" href={telHref(h.phone)}>
          致电预约 <span className="call-number">{h.phone}</span>
        </a>
      </div>
    </div>
  );
}

/** The level of a part's heading: under the page's h1 (医院详情), or under a hospital's h2 (国际医院). */
type Level = { level: 2 | 3 };

/** Opening hours and departments, side by side. */
export function HospitalInfo({
  hospital: h,
  abroad,
  drawnAt,
  zoneOffset,
  level,
}: { hospital: Hospital; abroad: boolean; drawnAt: number; zoneOffset: ZoneOffset | undefined } & Level) {
  const id = useId();
  const Heading = `h${level}` as const;
  const hours = h.openingHours?.length ? h.openingHours : undefined;
  if (!hours && h.departments.length === 0) return null;
  return (
    <div className="hospital-info">
      {hours ? (
        <OpeningHours
          hours={hours}
          timeZone={hospitalTimeZone(h, abroad)}
          drawnAt={drawnAt}
          zoneOffset={zoneOffset}
          localTo={abroad ? h.city : undefined}
          level={level}
        />
      ) : null}
      {h.departments.length > 0 ? (
        <section className="card hospital-departments" aria-labelledby={id}>
          <Heading id={id}>诊疗科室</Heading>
          <ul className="chips">
            {h.departments.map((d) => (
              <li key={d}>{d}</li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}

/** The doctors who work there, each with their clinic days and a call to book with them; nothing when none does. */
export function HospitalDoctors({ view, level }: { view: HospitalView<Hospital> } & Level) {
  const id = useId();
  const Heading = `h${level}` as const;
  if (!view.doctors?.length) return null;
  return (
    <section className="hospital-doctors" aria-labelledby={id}>
      <div className="list-head">
        <Heading className="list-title" id={id}>
          出诊专家
        </Heading>
        <p className="list-count">共 {view.doctors.length} 位专家</p>
      </div>
      <div className="expert-grid grid4 fill">
        {view.doctors.map((e) => (
          <ExpertCard key={e.id} expert={e} atHospital />
        ))}
      </div>
    </section>
  );
}

/** The news that names it, newest found first; nothing when there is none. */
export function HospitalNews({ view, level }: { view: HospitalView<Hospital> } & Level) {
  const id = useId();
  const Heading = `h${level}` as const;
  if (!view.news?.length) return null;
  return (
    <section className="hospital-news" aria-labelledby={id}>
      <div className="list-head">
        <Heading className="list-title" id={id}>
          医院动态
        </Heading>
      </div>
      <ul className="hospital-news-list">
        {view.news.map((n) => (
          <li key={n.url}>
            <Link to={n.url}>
              <Typeset text={n.title} />
            </Link>
            <span className="hospital-news-meta">{n.meta}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
