/**
 * What the primary and its workers say to each other over node:cluster's IPC channel (workers.ts,
 * primary-link.ts). Every message of ours carries a `site:` type, so that it is never taken for
 * one of the libraries' own on the same channel (rate-limiter-flexible's, prom-client's).
 */
import type { Registry } from 'prom-client';
import type { RecentError } from '../observability/recent-errors.js';
import type { PurgeMessage } from './purge-message.js';
import type { SharedTier } from './shared-tier.js';

/** The shared tier's methods a worker calls in the primary. */
export type TierMethod = Exclude<keyof SharedTier, 'available'>;

/** One process's part of the status of the service (for /metrics and /status). */
export interface ProcessReport {
  metrics: Awaited<ReturnType<Registry['getMetricsAsJSON']>>;
  /** Clients by budget points spent in the current and the last window, most first. */
  spenders: [client: string, points: number][];
  /** Peers not in TRUSTED_PROXIES that sent X-Forwarded-For, with how many requests. */
  forwarders: [address: string, requests: number][];
  recentErrors: RecentError[];
  /** Searches that found nothing, with how often they were asked, most first. */
  zeroResults: [query: string, count: number][];
}

/** Whether the machine is ready, as its workers told their primary. */
export interface MachineReadiness {
  /** Some worker holds answers (and so, through the shared tier, every worker can serve). */
  warm: boolean;
  /** Every worker is too busy to take more work. */
  busy: boolean;
}

export type PrimaryCall = { op: 'tier'; method: TierMethod; args: unknown[] } | { op: 'report' } | { op: 'readiness' };

export type ToPrimary =
  | { type: 'site:listening'; url: string }
  | { type: 'site:call'; id: number; call: PrimaryCall }
  | { type: 'site:report'; id: number; report: ProcessReport }
  | { type: 'site:state'; warm: boolean; busy: boolean }
  | { type: 'site:forwarder'; address: string }
  | ({ type: 'site:purge' } & PurgeMessage);

export type ToWorker =
  | { type: 'site:reply'; id: number; result?: unknown; error?: string }
  | { type: 'site:report-request'; id: number }
  | ({ type: 'site:purge' } & PurgeMessage);

/** A message of ours, as opposed to a library's on the same channel. */
export function isSiteMessage<M extends { type: string }>(message: unknown): message is M {
  return typeof message === 'object' && message !== null && String((message as { type?: unknown }).type).startsWith('site:');
}
