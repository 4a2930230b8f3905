/**
 * Every address the site links to, built from the route table: one typed `href`, and the
 * canonical form of a page's address that canonical links, the page cache and the edge key on.
 */
import { A11Y_PATH, RESEARCH_SUBCATEGORY_IDS, TEXT_SIZE_PATH } from '../constants.js';
import {
  CATEGORY_NAMES,
  CATEGORY_ROUTES,
  ROUTES,
  SECTIONS,
  sectionOf,
  type CategoryId,
  type ItemRoute,
  type PageParam,
  type RouteFacts,
  type RouteKey,
} from './route-table.js';

type ParamOf<K extends RouteKey> = (typeof ROUTES)[K]['params'][number];

type HrefParams<K extends RouteKey> = { [P in ParamOf<K>]?: string | number };
type HrefArgs<K extends RouteKey> = K extends ItemRoute ? [params: { id: number }] : [params?: HrefParams<K>];

/** The name a parameter has in the address (a category travels as `id`). */
export const urlName = (param: PageParam) => (param === 'category' ? 'id' : param);

const isCategory = (id: number): id is CategoryId => id in CATEGORY_NAMES;

/**
 * A route's address. The query is in canonical order: the listed category's `id` and `name`
 * (for a route that lists one), then the route's own parameters; page 1 is left out, so one
 * page has one address.
 */
export function href<K extends RouteKey>(key: K, ...[params]: HrefArgs<K>): string {
  return build(ROUTES[key], params ?? {});
}

function build(route: RouteFacts, values: Partial<Record<PageParam, string | number>>): string {
  const query = new URLSearchParams();
  if (route.category !== undefined) {
    query.set('id', String(route.category));
    query.set('name', CATEGORY_NAMES[route.category]);
  }
  for (const param of route.params) {
    const value = values[param];
    // Page 1 is the page without a number; any other value is kept as given (an invalid one is a 404 of its own).
    if (value === undefined || (param === 'page' && String(value) === '1')) continue;
    query.set(urlName(param), String(value));
    const id = Number(value);
    if (param === 'category' && isCategory(id)) query.set('name', CATEGORY_NAMES[id]);
  }
  const search = query.toString();
  return search ? `${route.path}?${search}` : route.path;
}

/** The parent of a sub-category of 教育新闻 or 科研新闻, if `id` is one. */
export function parentOf(id: number): 17 | 18 | undefined {
  for (const parent of [17, 18] as const) if ((RESEARCH_SUBCATEGORY_IDS[parent] as readonly number[]).includes(id)) return parent;
  return undefined;
}

/** The page that lists a category (or a sub-category, as a filter of its parent's page); undefined for an unknown id. */
export function categoryHref(id: number): string | undefined {
  const parent = parentOf(id);
  if (parent !== undefined) return build(ROUTES[CATEGORY_ROUTES[parent]], { sub: id });
  if (!isCategory(id)) return undefined;
  const key = CATEGORY_ROUTES[id];
  return key === 'news' ? href('news', { category: id }) : href(key);
}

/** The section a category belongs to. */
export function categorySection(id: number) {
  const parent = parentOf(id) ?? id;
  return isCategory(parent) ? sectionOf(CATEGORY_ROUTES[parent]) : undefined;
}

/** A content item's page: news reads as a report (报道详情), every other item as content (内容详情). */
export function contentHref(item: { id: number; categoryId: number }): string {
  return href(categorySection(item.categoryId) === 'news' ? 'reportDetail' : 'contentDetail', { id: item.id });
}

export const expertHref = (id: number) => href('expertDetail', { id });

/** A hospital's page: a hospital in China has its own (医院详情); one abroad is shown on 国际医院, which keeps its address. */
export const hospitalHref = (hospital: { id: number; abroad?: boolean | undefined }) =>
  hospital.abroad ? href('international') : href('hospital', { id: hospital.id });

/** A featured treatment's page (opened with id=5, name and title). */
export const treatmentHref = (title: string) => href('treatments', { title });

/** Where a section's header item leads: its first link. */
export function sectionHref(key: keyof typeof SECTIONS): string {
  const first = SECTIONS[key].links[0]!;
  return 'route' in first ? href(first.route) : categoryHref(first.category)!;
}

/** The switch of the large-text mode (长者模式): it turns the mode on or off and comes back to `back`. */
export function textSizeHref(large: boolean, back: string): string {
  return `${TEXT_SIZE_PATH}?${new URLSearchParams({ large: large ? '1' : '0', back })}`;
}

/** What 辅助浏览's switch changes (server/render/a11y-switch.ts): the theme, the cursor, or every preference at once. */
export type A11ySetting = { theme: 'contrast' | 'plain' } | { cursor: 'large' | 'normal' } | { reset: true };

/** 辅助浏览's switch: it changes `setting` and comes back to `back`. */
export function a11yHref(setting: A11ySetting, back: string): string {
  const query = 'reset' in setting ? { reset: '1' } : setting;
  return `${A11Y_PATH}?${new URLSearchParams({ ...query, back })}`;
}

/** Where a visitor books: the booking section of 联系我们 (by phone or WeChat; the site takes no bookings itself). */
export const bookingHref = () => `${href('contact')}#booking`;

/** A phone number as a tel: link (digits and a leading + only). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

const ROUTE_BY_PATH = new Map<string, RouteKey>(Object.entries(ROUTES).map(([key, route]) => [route.path, key as RouteKey]));

/** The route at a path (a trailing slash is the same page, as the router matches it). */
export function routeAt(pathname: string): RouteKey | undefined {
  return ROUTE_BY_PATH.get(pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);
}

/** The values of the parameters a route reads, as the address gives them; everything else is dropped. */
function paramsOf<K extends RouteKey>(key: K, search: URLSearchParams): HrefParams<K> {
  const out: Partial<Record<PageParam, string>> = {};
  for (const param of ROUTES[key].params as readonly PageParam[]) {
    const value = search.get(urlName(param));
    if (value !== null) out[param] = value;
  }
  return out;
}

/** The page shown with another page number: its route's own parameters kept, the rest dropped. */
export function withPage(route: RouteKey, search: URLSearchParams, page: number): string {
  return build(ROUTES[route], { ...paramsOf(route, search), page });
}

/**
 * A page's canonical address: its route's own parameters in canonical order, nothing else
 * (utm_*, gclid and every parameter the page does not read are left out). Two addresses with
 * the same canonical form show the same page. Undefined for a path that is no route.
 */
export function canonicalHref(pathname: string, search: URLSearchParams): string | undefined {
  const key = routeAt(pathname);
  if (key === undefined) return undefined;
  return build(ROUTES[key], paramsOf(key, search));
}

/** Whether search engines should keep the page at this address: not search results, nor a list narrowed by a filter. */
export function indexable(key: RouteKey, search: URLSearchParams): boolean {
  const route: RouteFacts = ROUTES[key];
  return !route.noindex && !route.filters?.some((param) => search.get(urlName(param)));
}
