/**
 * What /readyz answers: one answer for the machine, whichever worker is asked. Busy only when all
 * its processes are (shedding load); ready when any holds answers (they share them) or the
 * content API answers; not ready otherwise.
 */
import type { PrimaryLink } from './fleet/primary-link.js';
import { apiRequestFor } from './proxy/api-request.js';
import type { ContentCache } from './proxy/content-cache.js';
import type { Registry } from 'prom-client';
import { gaugeOnScrape } from './observability/metrics.js';
import type { Admission } from './reliability/admission.js';

export function readiness(deps: {
  admission: Pick<Admission, 'busy'>;
  cache: ContentCache;
  link: PrimaryLink | undefined;
  registry: Registry;
}): () => Promise<'ready' | 'not ready' | 'busy'> {
  const { admission, cache, link } = deps;
  // This process's part of the answer, for the metrics: the machine's is the workers' maximum.
  gaugeOnScrape(
    deps.registry,
    {
      name: 'service_ready',
      help: 'Whether the service can serve (/readyz): 1 ready, 0 not ready or busy; with workers, 1 when any can (they share their answers).',
      aggregator: 'max',
    },
    () => (admission.busy || !cache.warm ? 0 : 1),
  );
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
