/** Where things lead (SITE.md points 4 and 5): the one place that builds the site's links. */
import { CATEGORY, RESEARCH_SUBCATEGORY_IDS } from './constants.js';

function withQuery(path: string, params: Record<string, string | number | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) query.set(key, String(value));
  }
  const s = query.toString();
  return s ? `${path}?${s}` : path;
}

const CATEGORY_ROUTES: Record<number, string> = {
  [CATEGORY.featuredTreatments]: '/hzhf/tszl',
  [CATEGORY.knowledge]: '/hzhf/kpzs',
  [CATEGORY.equipment]: '/hzhf/zlsb',
  [CATEGORY.researchInnovation]: '/xsyj/xsyj',
  [CATEGORY.academicExchange]: '/xsyj/ykxs',
  [CATEGORY.educationNews]: '/xsyj/jyxw',
  [CATEGORY.researchNews]: '/xsyj/kyxw',
  [CATEGORY.groupNews]: '/news/index',
  [CATEGORY.hospitalNews]: '/news/index',
  [CATEGORY.mediaReports]: '/news/index',
};

/** The page of a category, with `id` and `name` in the query as the original site passes them. */
export function categoryHref(id: number, name: string): string {
  for (const [parent, children] of Object.entries(RESEARCH_SUBCATEGORY_IDS)) {
    if ((children as readonly number[]).includes(id)) {
      return withQuery(CATEGORY_ROUTES[Number(parent)]!, { id: parent, sub: id });
    }
  }
  return withQuery(CATEGORY_ROUTES[id] ?? '/', { id, name });
}

/** A featured treatment (SPEC.md: opened with id=5, name and title). */
export function treatmentHref(title: string): string {
  return withQuery('/hzhf/tszl', { id: CATEGORY.featuredTreatments, name: '特色治疗', title });
}

const NEWS_IDS: readonly number[] = [CATEGORY.groupNews, CATEGORY.hospitalNews, CATEGORY.mediaReports];

/** A content item's detail page: news reads as a report (报道详情), everything else as content. */
export function contentHref(item: { id: number; categoryId: number }): string {
  const path = NEWS_IDS.includes(item.categoryId) ? '/gnyy/detail' : '/hzhf/kpzsDetail';
  return withQuery(path, { id: item.id });
}

export function expertHref(id: number): string {
  return withQuery('/zjxz/detail', { id });
}

/** The same page with another page number; other parameters are kept. */
export function pageHref(pathname: string, search: string, page: number): string {
  const query = new URLSearchParams(search);
  if (page <= 1) query.delete('page');
  else query.set('page', String(page));
  const s = query.toString();
  return s ? `${pathname}?${s}` : pathname;
}

/** A phone number as a tel: link (digits and a leading + only). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}
