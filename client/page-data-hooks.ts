/** Typed access to the loaders' data from inside pages and components. */
import { useLoaderData, useRouteLoaderData } from 'react-router';
import type { PageData, PageKey } from '../shared/page-data.js';

export function usePageData<K extends PageKey>(): PageData<K> {
  return useLoaderData() as PageData<K>;
}

/** Header and footer data; parts the content API could not give are null or empty. */
export function useLayoutData(): PageData<'layout'> {
  return useRouteLoaderData('root') as PageData<'layout'>;
}
