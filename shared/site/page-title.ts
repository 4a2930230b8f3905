/**
 * document.title (docs/product/routes.md): the page's name, and for a page that shows one item,
 * the item's title before it (`陈立衡 - 专家详情`), so that tabs, bookmarks, history and search
 * results tell items apart. The server writes it into the HTML; the browser sets it again after
 * every client-side navigation, from the same data.
 */
import type { PageData } from './page-loaders.js';
import { ROUTES, type RouteKey } from './route-table.js';

/** Between an item's title and the page's name. */
const SEPARATOR = ' - ';

/** The item a page about one thing shows, by its title; none for any other page. */
function itemTitle(route: RouteKey, data: unknown, search: URLSearchParams): string | undefined {
  if (data == null) return undefined;
  switch (route) {
    case 'contentDetail':
    case 'reportDetail':
      return (data as PageData<'contentDetail'>).item.title;
    case 'expertDetail':
      return (data as PageData<'expertDetail'>).name;
    case 'hospital':
      return (data as PageData<'hospital'>).hospital.name;
    case 'treatments':
      // Opened with a title, the page shows that treatment; without one, the list's first.
      return search.has('title') ? (data as PageData<'treatments'>).selected.title : undefined;
    default:
      return undefined;
  }
}

export function documentTitle(route: RouteKey, data: unknown, search: URLSearchParams): string {
  const name = ROUTES[route].title;
  const item = itemTitle(route, data, search)?.trim();
  return item ? `${item}${SEPARATOR}${name}` : name;
}
