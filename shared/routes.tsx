/**
 * The one route table, used by the server's static handler and the browser's router.
 * Pages are lazy modules (one chunk each); loaders read content through the ContentApi given.
 */
import { data, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { Layout } from '../client/components/layout.js';
import { PageError, RootError } from '../client/components/page-error.js';
import { isContentError, type ContentApi } from './content-api.js';
import { PAGE_LOADERS, type PageKey } from './page-data.js';
import { NOT_FOUND_TITLE, PAGE_ROUTES, type PageRoute } from './page-routes.js';

export interface RouteHandle {
  title: string;
  description: string;
  /** The page module, as Vite's manifest names it (client/pages/x-page.tsx). */
  module?: string;
}

/** The id of the <script type="application/json"> that carries the loaders' data to the browser. */
export const ROUTER_DATA_ID = '__router-data';

type PageModule = { default: React.ComponentType };
const pageModules = import.meta.glob<PageModule>('../client/pages/*-page.tsx');

/** The error a page shows: 404 when the content does not exist, 503 otherwise. */
function toRouteError(error: unknown): never {
  if (isContentError(error)) {
    const status = error.status === 404 ? 404 : 503;
    throw data({ code: error.code, message: error.message }, { status });
  }
  throw error;
}

/**
 * What the server passes to a render as React Router's request context: the ContentApi for
 * this request (it notes what the page read). The browser passes none and uses the routes' own.
 */
export interface RenderContext {
  contentApi: ContentApi;
}

function contentApiOf(context: unknown, fallback: ContentApi): ContentApi {
  return (context as RenderContext | undefined)?.contentApi ?? fallback;
}

function loaderFor(api: ContentApi, key: PageKey) {
  return async ({ request, context }: LoaderFunctionArgs) => {
    try {
      return await PAGE_LOADERS[key](contentApiOf(context, api), new URL(request.url), request.signal);
    } catch (error) {
      return toRouteError(error);
    }
  };
}

function pageRoute(api: ContentApi, route: PageRoute): RouteObject {
  const load = pageModules[`../client/pages/${route.file}.tsx`];
  if (!load) throw new Error(`client/pages/${route.file}.tsx is missing`);
  const handle: RouteHandle = {
    title: route.title,
    description: route.description,
    module: `client/pages/${route.file}.tsx`,
  };
  return {
    id: route.key,
    ...(route.path === '/' ? { index: true } : { path: route.path }),
    handle,
    loader: loaderFor(api, route.key),
    lazy: async () => ({ Component: (await load()).default }),
    ErrorBoundary: PageError,
  };
}

export function createRoutes(api: ContentApi): RouteObject[] {
  const notFound: RouteHandle = { title: NOT_FOUND_TITLE, description: NOT_FOUND_TITLE };
  return [
    {
      id: 'root',
      path: '/',
      Component: Layout,
      ErrorBoundary: RootError,
      loader: ({ request, context }) => PAGE_LOADERS.layout(contentApiOf(context, api), new URL(request.url), request.signal),
      // Header and footer content is read once per visit, not on every navigation.
      shouldRevalidate: () => false,
      children: [
        ...PAGE_ROUTES.map((route) => pageRoute(api, route)),
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
