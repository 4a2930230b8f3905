/**
 * The site's sections and their sub-pages (SITE.md points 4 and 5), shared by the header,
 * the footer and the pages' tabs. Category names come from the content API when it answered;
 * these fall-backs keep the site navigable when it did not.
 */
import type { Category } from '../../shared/contract/entities.js';
import { CATEGORY, RESEARCH_CATEGORY_IDS } from '../../shared/constants.js';
import { categoryHref } from '../../shared/links.js';
import type { PageData } from '../../shared/page-data.js';
import type { TabLink } from './section-tabs.js';

export const ABOUT_LINKS = [
  { label: '企业文化', to: '/jtjj/qywh' },
  { label: '发展历程', to: '/jtjj/fzlc' },
  { label: '荣誉奖项', to: '/jtjj/ryjx' },
  { label: '企业宣传片', to: '/jtjj/qyhcp' },
] as const;

export const SERVICE_CATEGORIES: readonly Category[] = [
  { id: CATEGORY.featuredTreatments, name: '特色治疗' },
  { id: CATEGORY.knowledge, name: '科普知识' },
  { id: CATEGORY.equipment, name: '治疗设备' },
];

export const RESEARCH_CATEGORIES: readonly Category[] = [
  { id: CATEGORY.researchInnovation, name: '科研创新' },
  { id: CATEGORY.academicExchange, name: '学术交流' },
  { id: CATEGORY.educationNews, name: '教育新闻' },
  { id: CATEGORY.researchNews, name: '科研新闻' },
];

export const NEWS_CATEGORIES: readonly Category[] = [
  { id: CATEGORY.groupNews, name: '集团新闻' },
  { id: CATEGORY.hospitalNews, name: '医院新闻' },
  { id: CATEGORY.mediaReports, name: '媒体报道' },
];

const EMPTY_LAYOUT: PageData<'layout'> = {
  intro: null,
  patientCategories: [],
  treatments: [],
  researchCategories: [],
  newsCategories: [],
  contact: null,
};

/** Layout data, or an empty set when there is none (tests, an error above the layout). */
export function orEmpty(layout: PageData<'layout'> | undefined | null): PageData<'layout'> {
  return layout ?? EMPTY_LAYOUT;
}

/** The server's categories, or the fall-backs when it gave none. */
export function categoriesOr(list: readonly Category[] | undefined, fallback: readonly Category[]): readonly Category[] {
  return list && list.length > 0 ? list : fallback;
}

/** The name of a category id, from the server's lists first. */
export function categoryName(id: number, layout: PageData<'layout'>): string | undefined {
  const all = [
    ...layout.patientCategories,
    ...layout.researchCategories,
    ...layout.newsCategories,
    ...SERVICE_CATEGORIES,
    ...RESEARCH_CATEGORIES,
    ...NEWS_CATEGORIES,
  ];
  return all.find((c) => c.id === id)?.name;
}

export function categoryTabs(categories: readonly Category[], currentId: number | undefined): TabLink[] {
  return categories.map((c) => ({ label: c.name, to: categoryHref(c.id, c.name), current: c.id === currentId }));
}

export function aboutTabs(pathname: string): TabLink[] {
  return ABOUT_LINKS.map((l) => ({ ...l, current: l.to === pathname }));
}

/** The section a category belongs to, for breadcrumbs. */
export function sectionOf(categoryId: number): { label: string; to: string } | undefined {
  if (SERVICE_CATEGORIES.some((c) => c.id === categoryId)) {
    return { label: '患者服务', to: categoryHref(CATEGORY.featuredTreatments, '特色治疗') };
  }
  if (NEWS_CATEGORIES.some((c) => c.id === categoryId)) {
    return { label: '新闻媒体', to: categoryHref(CATEGORY.groupNews, '集团新闻') };
  }
  if ((RESEARCH_CATEGORY_IDS as readonly number[]).includes(categoryId)) {
    return { label: '学术研究', to: categoryHref(CATEGORY.researchInnovation, '科研创新') };
  }
  return undefined;
}
