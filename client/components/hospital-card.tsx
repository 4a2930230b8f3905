/** A hospital in China as a card: picture, name (a link to its page), city, address, phone and departments. */
import type { Hospital } from '../../shared/contract/entities.js';
import { Link } from 'react-router';
import { hospitalHref, telHref } from '../../shared/site/href.js';
import { CARD_LARGE_SIZES, CARD_PHONE_WIDEST, CARD_SIZES } from './content-card.js';
import { ContentImage } from './content-image.js';
import { FactList } from './fact-list.js';
import { MapLink } from './map-link.js';
import { Typeset } from '../typeset/typeset.js';
import { Address } from './address.js';

interface HospitalCardProps {
  hospital: Hospital;
  headingLevel?: 2 | 3;
  /** The first card of the page: its picture is the LCP on phones. */
  priority?: boolean;
}

export function HospitalCard({ hospital, headingLevel = 3, priority }: HospitalCardProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="card hospital-card">
      <ContentImage
        className="card-media media"
        image={hospital.image}
        sizes={CARD_SIZES}
        largeSizes={CARD_LARGE_SIZES}
        phoneWidest={CARD_PHONE_WIDEST}
        alt={hospital.name}
        width={800}
        height={500}
        priority={priority}
      />
      <div className="card-body">
        <p className="hospital-city">
          {hospital.city} · 创立于 {hospital.founded} 年
        </p>
        <Heading className="card-title">
          <Link to={hospitalHref(hospital)}>
            <Typeset text={hospital.name} />
          </Link>
        </Heading>
        <p className="card-text">
          <Typeset text={hospital.summary} />
        </p>
        <FactList
          facts={[
            [
              '地址',
              <>
                <Address text={hospital.address} />
                {hospital.mapUrl ? <MapLink href={hospital.mapUrl} place={hospital.name} /> : null}
              </>,
            ],
            ['电话', <a href={telHref(hospital.phone)}>{hospital.phone}</a>],
          ]}
        />
        {hospital.departments.length > 0 ? (
          <ul className="chips" aria-label="主要科室">
            {hospital.departments.map((d) => (
              <li key={d}>{d}</li>
            ))}
          </ul>
        ) : null}
      </div>
    </article>
  );
}
