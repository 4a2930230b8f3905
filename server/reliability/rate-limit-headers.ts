/**
 * The IETF httpapi RateLimit header fields (draft-ietf-httpapi-ratelimit-headers-11): the policy a
 * client is under (`RateLimit-Policy: "calls";q=60;w=10`) and where it stands now
 * (`RateLimit: "calls";r=59;t=7`, the points left and the seconds until the window ends), on the
 * answers that spent a point of its budget and on every 429, so that a client can slow down before
 * it is refused (docs/decisions/024).
 */
import type { Budget } from './miss-limiter.js';

/** The two fields as flat name/value pairs, for writeHead. */
export function rateLimitHeaders(budget: Budget | undefined): string[] {
  if (!budget) return [];
  return [
    'ratelimit-policy',
    `"${budget.policy}";q=${budget.quota};w=${budget.windowS}`,
    'ratelimit',
    `"${budget.policy}";r=${budget.remaining};t=${budget.resetS}`,
  ];
}
