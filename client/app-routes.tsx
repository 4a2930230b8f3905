/**
 * The app's React Router routes, made from the route table: used by the server's static handler
 * and the browser's router alike. Pages are lazy modules (one chunk each); loaders read content
 * through the ContentApi in the router's context (the server's per request, the browser's own).
 */
import { createContext, data, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { isContentError, type ContentApi } from '../shared/content-api.js';
import { pageStatus } from '../shared/problems.js';
import { Layout } from './components/layout.js';
import { PageError, RootError } from './components/page-error.js';
import { PAGE_LOADERS, type PageKey } from '../shared/site/page-loaders.js';
import type { RouteHandle } from './route-handle.js';
import { NOT_FOUND_TITLE, ROUTES, type RouteKey } from '../shared/site/route-table.js';

/** The id of the <script type="application/json"> that carries the loaders' data to the browser. */
export const ROUTER_DATA_ID = '__router-data';

/** The ContentApi that loaders read through. */
export const contentApiContext = createContext<ContentApi>();

/**
 * Resolves once a page drawn anew can be typeset: on the server at once; in the browser, when the
 * phrase model is loaded (client/typeset/phrases-in-browser.ts), which a navigation's loaders wait for.
 */
export const phrasesReadyContext = createContext<() => Promise<void>>(() => Promise.resolve());

type PageModule = { default: React.ComponentType };
const pageModules = import.meta.glob<PageModule>('./pages/*-page.tsx');

/** The error a page shows: 404 or 429 as the content API's answer said, 503 otherwise. */
function toRouteError(error: unknown): never {
  if (isContentError(error)) {
    throw data({ code: error.code, message: error.message }, { status: pageStatus(error.status) });
  }
  throw error;
}

function loaderFor(key: PageKey) {
  return async ({ context, url, request }: LoaderFunctionArgs) => {
    try {
      const [data] = await Promise.all([
        PAGE_LOADERS[key](context.get(contentApiContext), url, request.signal),
        context.get(phrasesReadyContext)(),
      ]);
      return data;
    } catch (error) {
      return toRouteError(error);
    }
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
