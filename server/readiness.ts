/**
 * What /readyz answers: one answer for the machine, whichever worker is asked. Busy only when all
 * its processes are (shedding load); ready when any holds answers (they share them) or the
 * content API answers; not ready otherwise.
 */
import type { PrimaryLink } from './fleet/primary-link.js';
import { apiRequestFor } from './proxy/api-request.js';
import type { ContentCache } from './proxy/content-cache.js';
import type { Admission } from './reliability/admission.js';

export function readiness(deps: {
  admission: Pick<Admission, 'busy'>;
  cache: ContentCache;
  link: PrimaryLink | undefined;
}): () => Promise<'ready' | 'not ready' | 'busy'> {
  const { admission, cache, link } = deps;
  return async () => {
    const machine = await link?.readiness();
    if (machine ? machine.busy : admission.busy) return 'busy';
    if (cache.warm || machine?.warm) return 'ready';
    try {
      await cache.get(apiRequestFor('contactUs'));
      return 'ready';
    } catch {
      return 'not ready';
    }
  };
}
