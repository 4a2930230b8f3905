/** What page loaders share: the 404 of an address that names nothing, the required `id`, a read left out when it fails. */
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
