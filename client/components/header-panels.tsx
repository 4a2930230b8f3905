/** The contents of the header's hover panels: the section's text and links, and what its panel adds. */
import { Link } from 'react-router';
import { hospitalHref, treatmentHref } from '../../shared/site/href.js';
import { sectionLinks, type Layout, type NavLink } from '../../shared/site/navigation.js';
import { SECTIONS, type SectionKey } from '../../shared/site/route-table.js';
import { ContentImage, designSizes } from './content-image.js';
import { Typeset } from '../typeset/typeset.js';

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

/** 国内医院: the hospitals in China, each under its city's name, leading to its page. */
function HospitalsByCity({ hospitals }: { hospitals: Layout['hospitals'] }) {
  return (
    <ul className="panel-cities">
      {hospitals.map((h) => (
        <li key={h.id}>
          <Link to={hospitalHref(h)} className="panel-city-link">
            <span className="panel-city">{h.city}</span>
            {h.name}
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** 国际医院: the hospital abroad itself: its picture, city, the first sentence of its summary, and its page. */
function HospitalAbroad({ hospital }: { hospital: Layout['hospitals'][number] }) {
  return (
    <div className="panel-hospital">
      <ContentImage className="panel-figure" image={hospital.image} alt="" sizes={designSizes(256)} width={800} height={500} />
      <div className="panel-hospital-body">
        <p className="panel-hospital-city">{hospital.city}</p>
        <p className="panel-hospital-name">
          <Link to={hospitalHref(hospital)} className="panel-hospital-link">
            <Typeset text={hospital.name} />
          </Link>
        </p>
        {hospital.summary ? (
          <p className="panel-hospital-summary">
            <Typeset text={hospital.summary} />
          </p>
        ) : null}
      </div>
    </div>
  );
}

const hospitalPanel = (section: SectionKey) => section === 'domestic' || section === 'international';

export function PanelContent({ section, layout }: { section: SectionKey; layout: Layout }) {
  const { label, lead } = SECTIONS[section];
  // The group's own introduction text, from the content API, leads its panel.
  const text = section === 'about' ? layout.intro?.summary : lead;
  const links = sectionLinks(section, layout);
  const services = section === 'services';
  // The hospitals a hospital section's panel names (the domestic ones, or those abroad).
  const named = hospitalPanel(section) ? layout.hospitals.filter((h) => !h.abroad === (section === 'domestic')) : [];
  return (
    <>
      {services ? null : (
        <div className="panel-lead">
          <p className="panel-title">{label}</p>
          {text ? <p className="panel-text">{text}</p> : null}
        </div>
      )}
      {/* A hospital section's panel names the hospitals themselves, not the one page its item leads to. */}
      {named.length > 0 ? null : <PanelLinks links={links} drives={services ? links[0]?.to : undefined} />}
      {section === 'domestic' ? <HospitalsByCity hospitals={named} /> : null}
      {section === 'international' ? named.map((h) => <HospitalAbroad key={h.id} hospital={h} />) : null}
      {section === 'about' && layout.intro?.image ? (
        <ContentImage className="panel-figure" image={layout.intro.image} sizes={designSizes(400)} width={800} height={500} />
      ) : null}
      {services ? <TreatmentGrid treatments={layout.treatments} category={links[0]} /> : null}
    </>
  );
}
