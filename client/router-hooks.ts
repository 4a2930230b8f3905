/** Typed access to the router's state from pages and components: loader data, the current route and section. */
import { useLoaderData, useMatches, useRouteLoaderData } from 'react-router';
import type { RouteHandle } from './route-handle.js';
import { categorySection } from '../shared/site/href.js';
import type { PageData, PageKey } from '../shared/site/page-loaders.js';
import { sectionOf, type RouteKey, type SectionKey } from '../shared/site/route-table.js';

export function usePageData<K extends PageKey>(): PageData<K> {
  return useLoaderData() as PageData<K>;
}

/** Header and footer data; parts the content API could not give are null or empty. */
export function useLayoutData(): PageData<'layout'> | undefined {
  return useRouteLoaderData<PageData<'layout'>>('root');
}

/** The route of the page shown; undefined for the 404 page. */
export function useCurrentRoute(): RouteKey | undefined {
  return (useMatches().at(-1)?.handle as RouteHandle | undefined)?.route;
}

/** The section of the page shown; a content item's page belongs to its category's section. */
export function useCurrentSection(): SectionKey | undefined {
  const route = useCurrentRoute();
  const content = useRouteLoaderData<PageData<'contentDetail'>>('contentDetail');
  const report = useRouteLoaderData<PageData<'reportDetail'>>('reportDetail');
  const item = (content ?? report)?.item;
  if (item) return categorySection(item.categoryId) ?? (route && sectionOf(route));
  return route && sectionOf(route);
}
