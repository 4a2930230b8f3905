/**
 * The settings every service a test or a benchmark starts runs with, whether in the test's process
 * (start-service.ts) or as a process of its own (bench/harness/service.ts): the per-client limits
 * and load shedding off, as all the load comes from one address and is meant to reach the service
 * (the suites and benchmarks that measure them turn them on); real-user measurement off too, whose
 * beacons would add requests to what is counted (and its chunk to a first view's bytes).
 */
export const LIMITS_OFF = {
  RUM_SAMPLE_RATE: '0',
  RATE_LIMIT_MISSES: '0',
  SHED_EVENT_LOOP_LAG_MS: '0',
  MAX_CONNECTIONS_PER_CLIENT: '100000',
  RENDERS_PER_CLIENT: '0',
} as const;
