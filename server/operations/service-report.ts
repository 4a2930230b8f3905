/**
 * The service's state for operators (/status, and /metrics with workers): this process's report,
 * which a worker also hands its primary, and the whole service's, which with workers is every
 * worker's gathered by the primary.
 */
import type { ProcessReport } from '../fleet/cluster-messages.js';
import type { PrimaryLink, ServiceReport } from '../fleet/primary-link.js';
import type { UntrustedForwarders } from '../http/untrusted-forwarders.js';
import type { Admission } from '../reliability/admission.js';
import type { Metrics } from '../observability/metrics.js';
import type { RecentErrors } from '../observability/recent-errors.js';

/** The whole service's report, as a function to call when an operator asks. */
export function serviceReports(deps: {
  metrics: Metrics;
  admission: Pick<Admission, 'spenders'>;
  forwarders: UntrustedForwarders;
  recentErrors: RecentErrors | undefined;
  link: PrimaryLink | undefined;
  /** The searches that found nothing, most asked first. */
  zeroResults: () => [string, number][];
}): () => Promise<ServiceReport> {
  const { metrics, admission, forwarders, recentErrors, link, zeroResults } = deps;
  const processReport = async (): Promise<ProcessReport> => ({
    metrics: await metrics.registry.getMetricsAsJSON(),
    spenders: admission.spenders(),
    forwarders: forwarders.list(),
    recentErrors: recentErrors?.list() ?? [],
    zeroResults: zeroResults(),
  });
  link?.reportWith(processReport);
  return async () => {
    const gathered = await link?.report();
    if (gathered) return gathered;
    if (link) throw new Error("the primary did not gather the workers' reports in time");
    return { ...(await processReport()), metricsText: await metrics.registry.metrics() };
  };
}
