/**
 * How pages read content: one interface, two implementations. On the server it reads the
 * proxy's cache in-process; in the browser it calls the service's /api paths.
 */
import type { ApiData, ApiName, ApiQuery } from './contract/api-paths.js';
import type { SearchAnswer, SearchParams } from './search.js';

interface ContentRequest<N extends ApiName> {
  id?: number;
  query?: ApiQuery<N>;
  signal?: AbortSignal;
}

/**
 * What a page does with a search: shows its `results` (a visitor's words, or the expert finder's
 * filters), or shows a few of them `beside` its own content, under words it chose itself (a
 * hospital's news): such a page may be kept a little while, as a news list is.
 */
type SearchUse = 'results' | 'beside';

export interface ContentApi {
  get<N extends ApiName>(name: N, request?: ContentRequest<N>): Promise<ApiData<N>>;
  /** The site's search (/api/search): the index of everything the content API has; a query that cannot be is a 400. */
  search(params: SearchParams, signal?: AbortSignal, use?: SearchUse): Promise<SearchAnswer>;
  /**
   * What the page shows changes at this instant (epoch ms) though its data does not (a hospital
   * opens or closes): a page kept on the server or an edge is not kept past it. The browser keeps
   * no page, and has none: what changes there is drawn anew by the page itself.
   */
  changesAt?(at: number): void;
}

const BRAND = Symbol.for('site.content-error');

/**
 * Why content could not be had; `status` is the HTTP status the proxy API answers with, and
 * `retryAfterS`, when set, how soon asking again may succeed (a Retry-After header).
 */
export class ContentError extends Error {
  readonly [BRAND] = true;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterS?: number,
  ) {
    super(message);
    this.name = 'ContentError';
  }
}

/**
 * True for a ContentError from any copy of this module (in development the server and the
 * rendered app load separate copies, so `instanceof` is not enough).
 */
export function isContentError(error: unknown): error is ContentError {
  return typeof error === 'object' && error !== null && BRAND in error;
}
