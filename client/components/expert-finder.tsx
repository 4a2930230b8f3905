/**
 * The expert finder (docs/product/search.md): the experts' hospitals, named by their city, and the
 * featured treatments the experts are under, as links that filter the expert list (they work
 * without JavaScript, and each filtered list has an address of its own to share); a filter chosen
 * is kept when the other changes. A choice with no expert is never offered. On a phone the two rows
 * fold into one line above the first doctor, saying what is chosen, which opens them.
 */
import type { ExpertFacets } from '../../shared/search.js';
import { href } from '../../shared/site/href.js';
import { orEmpty } from '../../shared/site/navigation.js';
import { useLayoutData } from '../router-hooks.js';
import { TabRow, type TabLink } from './section-tabs.js';

interface FinderProps {
  facets: ExpertFacets;
  hospital: string | undefined;
  specialty: string | undefined;
}

interface Choice {
  name: string;
  /** What the link says: a hospital by its city, where its city has no other. */
  label: string;
  count: number;
}

/** The hospitals in the site's own order (the content's), each named by its city unless the city has two. */
function useHospitalChoices(facets: ExpertFacets): Choice[] {
  const known = orEmpty(useLayoutData()).hospitals;
  const order = (name: string) => {
    const i = known.findIndex((h) => h.name === name);
    return i < 0 ? known.length : i;
  };
  return [...facets.hospitals]
    .sort((a, b) => order(a.name) - order(b.name))
    .map(({ name, count }) => {
      const city = known.find((h) => h.name === name)?.city;
      const alone = city !== undefined && known.filter((h) => h.city === city).length === 1;
      return { name, label: alone ? city : name, count };
    });
}

function tabs(choices: Choice[], chosen: string | undefined, to: (name: string | undefined) => string): TabLink[] {
  return [
    { label: '全部', to: to(undefined), current: chosen === undefined },
    ...choices.map((c) => ({ label: `${c.label} ${c.count}`, to: to(c.name), current: c.name === chosen })),
  ];
}

export function ExpertFinder({ facets, hospital, specialty }: FinderProps) {
  const hospitals = useHospitalChoices(facets);
  const specialties = facets.specialties.map(({ name, count }) => ({ name, label: name, count }));
  const rows = (
    <>
      <div className="finder-row">
        <p className="finder-label">按医院</p>
        <TabRow
          tabs={tabs(hospitals, hospital, (h) => href('experts', { hospital: h, specialty }))}
          label="按医院筛选专家"
          className="filter-tabs"
          linkClass="filter-link"
        />
      </div>
      <div className="finder-row">
        <p className="finder-label">按专科</p>
        <TabRow
          tabs={tabs(specialties, specialty, (s) => href('experts', { hospital, specialty: s }))}
          label="按专科筛选专家"
          className="filter-tabs"
          linkClass="filter-link"
        />
      </div>
    </>
  );
  const chosen = [hospitals.find((h) => h.name === hospital)?.label ?? '全部医院', specialty ?? '全部专科'].join(' · ');
  return (
    <div className="expert-finder">
      <div className="finder-rows">{rows}</div>
      {/* The phone's: one line until opened (a disclosure: it opens without JavaScript). */}
      <details className="finder-fold">
        <summary>
          <span className="finder-fold-title">筛选专家</span>
          <span className="finder-fold-chosen">{chosen}</span>
        </summary>
        {rows}
      </details>
    </div>
  );
}
