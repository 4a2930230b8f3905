/** What page loaders share: the 404 of an address that names nothing, the required `id` and page number, a list's page, a read left out when it fails. */
import { PAGE_MAX } from '../constants.js';
import { problem } from '../problems.js';
import { MAX_ID, parsePlainInt } from '../plain-int.js';

/** A page address whose parameters name nothing that exists: the page answers 404. */
export const pageNotFound = (message: string) => problem('not_found', message);

/** A required id from the query, or 404. */
export function requiredId(url: URL): number {
  const id = parsePlainInt(url.searchParams.get('id'), 1, MAX_ID);
  if (id === undefined) throw pageNotFound('id must be a positive integer');
  return id;
}

/** The value of a settled read, or null when it failed. */
export const valueOf = <T>(r: PromiseSettledResult<T>): T | null => (r.status === 'fulfilled' ? r.value : null);

/** The `page` parameter (1 when absent), or 404 when it is not a page number. */
export function pageNumber(url: URL): number {
  const raw = url.searchParams.get('page');
  if (raw === null) return 1;
  const page = parsePlainInt(raw, 1, PAGE_MAX);
  if (page === undefined) throw pageNotFound('page must be a page number');
  return page;
}

/** A page of a list: past its last page, the address names nothing (404). */
export async function listPage<T extends { items: unknown[]; page: number }>(read: Promise<T>): Promise<T> {
  const list = await read;
  if (list.page > 1 && list.items.length === 0) throw pageNotFound('page is past the last page');
  return list;
}
