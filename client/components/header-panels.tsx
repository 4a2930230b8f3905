/** The contents of the header's hover panels: the section's text and links, and what its panel adds. */
import { Link } from 'react-router';
import { telHref, treatmentHref } from '../../shared/site/href.js';
import { Address } from './address.js';
import { FactList } from './fact-list.js';
import { MapLink } from './map-link.js';
import { sectionLinks, type Layout, type NavLink } from '../../shared/site/navigation.js';
import { SECTIONS, type SectionKey } from '../../shared/site/route-table.js';
import { ContentImage, designSizes } from './content-image.js';

/** A section's links; `drives` marks the one whose items the panel shows beside them. */
function PanelLinks({ links, drives }: { links: readonly NavLink[]; drives?: string | undefined }) {
  return (
    <ul className="panel-links">
      {links.map((l) => (
        <li key={l.to}>
          <Link to={l.to} className={l.to === drives ? 'panel-link drives' : 'panel-link'}>
            {l.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The featured treatments, under the name of the category they belong to (the first of the section's links). */
function TreatmentGrid({ treatments, category }: { treatments: Layout['treatments']; category: NavLink | undefined }) {
  if (treatments.length === 0) return null;
  return (
    <div className="panel-grid">
      {category ? (
        <p className="panel-grid-title" id="panel-grid-title">
          {category.label}
          <span className="panel-grid-count">共 {treatments.length} 项</span>
        </p>
      ) : null}
      <ul className="panel-treatments" aria-labelledby={category ? 'panel-grid-title' : undefined}>
        {treatments.map((t) => (
          <li key={t.id}>
            <Link to={treatmentHref(t.title)} className="panel-treatment">
              <ContentImage image={t.icon} sizes={designSizes(52)} width={52} height={52} />
              <span>{t.title}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The hospital abroad: its picture, name, address on a map and phone. */
function HospitalAbroad({ hospital }: { hospital: Layout['international'][number] }) {
  return (
    <div className="panel-hospital">
      <ContentImage className="panel-figure" image={hospital.image} alt={hospital.name} sizes={designSizes(256)} width={800} height={500} />
      <div>
        <p className="panel-hospital-name">{hospital.name}</p>
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
      </div>
    </div>
  );
}

export function PanelContent({ section, layout }: { section: SectionKey; layout: Layout }) {
  const { label, lead } = SECTIONS[section];
  // The group's own introduction text, from the content API, leads its panel.
  const text = section === 'about' ? layout.intro?.summary : lead;
  const links = sectionLinks(section, layout);
  const services = section === 'services';
  return (
    <>
      {services ? null : (
        <div className="panel-lead">
          <p className="panel-title">{label}</p>
          {text ? <p className="panel-text">{text}</p> : null}
        </div>
      )}
      <PanelLinks links={links} drives={services ? links[0]?.to : undefined} />
      {section === 'international' && layout.international[0] ? <HospitalAbroad hospital={layout.international[0]} /> : null}
      {section === 'about' && layout.intro?.image ? (
        <ContentImage className="panel-figure" image={layout.intro.image} sizes={designSizes(400)} width={800} height={500} />
      ) : null}
      {services ? <TreatmentGrid treatments={layout.treatments} category={links[0]} /> : null}
    </>
  );
}
