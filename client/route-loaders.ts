/**
 * What a route's loader runs: the page's reads (shared/site/page-loaders.ts) through the
 * ContentApi in the router's context; a content error becomes the page's status. The browser
 * imports this module when a loader first runs: a first view hydrates with the server's data and
 * runs none (docs/decisions/071).
 */
import { data, type LoaderFunctionArgs } from 'react-router';
import { isContentError } from '../shared/content-api.js';
import { pageStatus } from '../shared/problems.js';
import { PAGE_LOADERS, type PageKey } from '../shared/site/page-loaders.js';
import { contentApiContext } from './router-context.js';

/** The error a page shows: 404 or 429 as the content API's answer said, 503 otherwise. */
function toRouteError(error: unknown): never {
  if (isContentError(error)) {
    throw data({ code: error.code, message: error.message }, { status: pageStatus(error.status) });
  }
  throw error;
}

export async function loadPage(key: PageKey, { context, url, request }: LoaderFunctionArgs): Promise<unknown> {
  try {
    return await PAGE_LOADERS[key](context.get(contentApiContext), url, request.signal);
  } catch (error) {
    return toRouteError(error);
  }
}
