/**
 * Navigation derived from the route table: each section's links (the header's panels, the
 * footer's columns, a page's tabs), breadcrumbs and the current section. Category names come
 * from the content API when it gave them; the route table's names keep the site navigable when
 * it did not.
 */
import type { Category } from '../contract/entities.js';
import { categoryHref, categorySection, href, sectionHref } from './href.js';
import type { PageData } from './page-loaders.js';
import {
  CATEGORY_NAMES,
  ROUTES,
  SECTIONS,
  sectionOf,
  type CategoryId,
  type RouteFacts,
  type RouteKey,
  type SectionKey,
} from './route-table.js';

export type Layout = PageData<'layout'>;

export interface NavLink {
  label: string;
  to: string;
}

const EMPTY_LAYOUT: Layout = {
  intro: null,
  patientCategories: [],
  treatments: [],
  researchCategories: [],
  newsCategories: [],
  contact: null,
  hospitals: [],
};

/** Layout data, or an empty set when there is none (an error above the layout). */
export function orEmpty(layout: Layout | undefined | null): Layout {
  return layout ?? EMPTY_LAYOUT;
}

/** The content API's own list of a section's categories. */
function apiCategories(section: SectionKey, layout: Layout): readonly Category[] {
  if (section === 'services') return layout.patientCategories;
  if (section === 'research') return layout.researchCategories;
  if (section === 'news') return layout.newsCategories;
  return [];
}

/** A category's name: the content API's when it gave one, else the route table's. */
export function categoryName(id: number, layout: Layout): string | undefined {
  const fromApi = [...layout.patientCategories, ...layout.researchCategories, ...layout.newsCategories].find((c) => c.id === id);
  return fromApi?.name ?? CATEGORY_NAMES[id as CategoryId];
}

/**
 * A section's links, in order. A section of categories lists the content API's categories
 * when it gave them (those the site has no page for are left out), else the route table's.
 */
export function sectionLinks(section: SectionKey, layout: Layout): NavLink[] {
  const fromApi = apiCategories(section, layout).flatMap((c) => {
    const to = categoryHref(c.id);
    return to && categorySection(c.id) === section ? [{ label: c.name, to }] : [];
  });
  if (fromApi.length > 0) return fromApi;
  return SECTIONS[section].links.map((link) =>
    'route' in link
      ? { label: ROUTES[link.route].title, to: href(link.route) }
      : { label: categoryName(link.category, layout)!, to: categoryHref(link.category)! },
  );
}

/** A section's links as tabs, with the current one marked. */
export function sectionTabs(section: SectionKey, layout: Layout, isCurrent: (to: string) => boolean): (NavLink & { current: boolean })[] {
  return sectionLinks(section, layout).map((l) => ({ ...l, current: isCurrent(l.to) }));
}

export interface FooterColumn {
  title: string;
  links: NavLink[];
}

/** The footer's columns: one per section with sub-pages, then one for the sections that are a single page. */
export function footerColumns(layout: Layout): FooterColumn[] {
  const keys = (Object.keys(SECTIONS) as SectionKey[]).filter((k) => k !== 'home');
  const single = keys.filter((k) => SECTIONS[k].links.length === 1);
  return [
    ...keys.filter((k) => !single.includes(k)).map((k) => ({ title: SECTIONS[k].label, links: sectionLinks(k, layout) })),
    { title: '医院与专家', links: single.map((k) => ({ label: SECTIONS[k].label, to: sectionHref(k) })) },
  ];
}

export interface Crumb {
  label: string;
  to?: string;
}

/** The breadcrumbs between 首页 and a page: its section, unless the page is the section itself. */
export function sectionCrumbs(route: RouteKey, section: SectionKey | undefined = sectionOf(route)): Crumb[] {
  if (section === undefined || section === 'home' || SECTIONS[section].label === ROUTES[route].title) return [];
  const landing = SECTIONS[section].links[0]!;
  const facts: RouteFacts = ROUTES[route];
  const isLanding = 'route' in landing ? landing.route === route : facts.category === landing.category;
  return [isLanding ? { label: SECTIONS[section].label } : { label: SECTIONS[section].label, to: sectionHref(section) }];
}
