/**
 * The expert finder (docs/product/search.md): the hospitals and specialties the experts have, as
 * links that filter the expert list (they work without JavaScript, and each filtered list has an
 * address of its own to share); a filter chosen is kept when the other changes.
 */
import type { ExpertFacets } from '../../shared/search.js';
import { href } from '../../shared/site/href.js';
import { TabRow } from './section-tabs.js';

interface FinderProps {
  facets: ExpertFacets;
  hospital: string | undefined;
  specialty: string | undefined;
}

export function ExpertFinder({ facets, hospital, specialty }: FinderProps) {
  const row = (names: ExpertFacets['hospitals'], chosen: string | undefined, to: (name: string | undefined) => string) => [
    { label: '全部', to: to(undefined), current: chosen === undefined },
    ...names.map((n) => ({ label: `${n.name} ${n.count}`, to: to(n.name), current: n.name === chosen })),
  ];
  return (
    <div className="expert-finder">
      <div className="finder-row">
        <p className="finder-label">按医院</p>
        <TabRow
          tabs={row(facets.hospitals, hospital, (h) => href('experts', { hospital: h, specialty }))}
          label="按医院筛选专家"
          className="filter-tabs"
          linkClass="filter-link"
        />
      </div>
      <div className="finder-row">
        <p className="finder-label">按专长</p>
        <TabRow
          tabs={row(facets.specialties, specialty, (s) => href('experts', { hospital, specialty: s }))}
          label="按专长筛选专家"
          className="filter-tabs"
          linkClass="filter-link"
        />
      </div>
    </div>
  );
}
