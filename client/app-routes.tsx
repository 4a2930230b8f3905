/**
 * The app's React Router routes, made from the route table: used by the server's static handler
 * and the browser's router alike. Pages are lazy modules (one chunk each); loaders read content
 * through the ContentApi in the router's context (the server's per request, the browser's own),
 * their code a module loaded when one first runs (route-loaders.ts).
 */
import { data, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { Layout } from './components/layout.js';
import { PageError, RootError } from './components/page-error.js';
import type { PageKey } from '../shared/site/page-loaders.js';
import type { RouteHandle } from './route-handle.js';
import { navigationCodeContext } from './router-context.js';
import { NOT_FOUND_TITLE, ROUTES, type RouteKey } from '../shared/site/route-table.js';

/** The id of the <script type="application/json"> that carries the loaders' data to the browser. */
export const ROUTER_DATA_ID = '__router-data';

type PageModule = { default: React.ComponentType };
const pageModules = import.meta.glob<PageModule>('./pages/*-page.tsx');

function loaderFor(key: PageKey) {
  return async (args: LoaderFunctionArgs) => {
    // Started first, so that it loads beside the loaders' code rather than after it.
    const ready = args.context.get(navigationCodeContext)();
    const { loadPage } = await import('./route-loaders.js');
    const [pageData] = await Promise.all([loadPage(key, args), ready]);
    return pageData;
  };
}

function pageRoute(key: RouteKey): RouteObject {
  const route = ROUTES[key];
  const load = pageModules[`./pages/${route.page}.tsx`];
  if (!load) throw new Error(`client/pages/${route.page}.tsx is missing`);
  const handle: RouteHandle = {
    route: key,
    title: route.title,
    module: `client/pages/${route.page}.tsx`,
  };
  return {
    id: key,
    ...(route.path === '/' ? { index: true } : { path: route.path }),
    handle,
    loader: loaderFor(key),
    lazy: async () => ({ Component: (await load()).default }),
    ErrorBoundary: PageError,
  };
}

export function createRoutes(): RouteObject[] {
  const notFound: RouteHandle = { title: NOT_FOUND_TITLE };
  return [
    {
      id: 'root',
      path: '/',
      Component: Layout,
      ErrorBoundary: RootError,
      loader: loaderFor('layout'),
      // Header and footer content is read once per visit, not on every navigation.
      shouldRevalidate: () => false,
      children: [
        ...(Object.keys(ROUTES) as RouteKey[]).map(pageRoute),
        {
          id: 'not-found',
          path: '*',
          handle: notFound,
          // Never drawn: the loader always throws, so the error boundary renders instead.
          Component: () => null,
          loader: () => {
            throw data({ code: 'not_found', message: 'no such page' }, { status: 404 });
          },
          ErrorBoundary: PageError,
        },
      ],
    },
  ];
}
