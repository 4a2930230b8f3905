/** The contents of the header's hover panels: the section's text and links, and what its panel adds. */
import { Link } from 'react-router';
import { treatmentHref } from '../href.js';
import { sectionLinks, type Layout, type NavLink } from '../navigation.js';
import { SECTIONS, type SectionKey } from '../route-table.js';

function PanelLinks({ links }: { links: readonly NavLink[] }) {
  return (
    <ul className="panel-links">
      {links.map((l) => (
        <li key={l.to}>
          <Link to={l.to} className="panel-link">
            {l.label}
          </Link>
        </li>
      ))}
    </ul>
  );
}

function TreatmentGrid({ treatments }: { treatments: Layout['treatments'] }) {
  if (treatments.length === 0) return null;
  return (
    <ul className="panel-treatments">
      {treatments.map((t) => (
        <li key={t.id}>
          <Link to={treatmentHref(t.title)} className="panel-treatment">
            <img src={t.icon} alt="" width={64} height={64} loading="lazy" decoding="async" />
            <span>{t.title}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

export function PanelContent({ section, layout }: { section: SectionKey; layout: Layout }) {
  const { label, lead } = SECTIONS[section];
  // The group's own introduction text, from the content API, leads its panel.
  const text = section === 'about' ? layout.intro?.summary : lead;
  return (
    <>
      {section === 'services' ? null : (
        <div className="panel-lead">
          <p className="panel-title">{label}</p>
          {text ? <p className="panel-text">{text}</p> : null}
        </div>
      )}
      <PanelLinks links={sectionLinks(section, layout)} />
      {section === 'about' && layout.intro?.image ? (
        <img className="panel-figure" src={layout.intro.image} alt="" width={800} height={500} loading="lazy" decoding="async" />
      ) : null}
      {section === 'services' ? <TreatmentGrid treatments={layout.treatments} /> : null}
    </>
  );
}
