/**
 * The memory budget (docs/operations/memory.md, docs/decisions/055): one limit for the service on
 * this machine, MEMORY_LIMIT_BYTES or else its cgroup's (what `process.constrainedMemory()` reads:
 * cgroup v2's `memory.max` and `memory.high`, v1's `memory.limit_in_bytes`), shared by its
 * processes. Each process's slice gives every bounded part (the caches) its share; the rest (the V8
 * heap, libvips, the allocator's own) is headroom, measured by bench/memory-soak.ts rather than
 * bounded. A part's own setting (CACHE_MAX_BYTES, …), when given, is its share instead; under a
 * real limit the parts together may take at most half of the slice, or the service does not start.
 */
import { availableParallelism, totalmem } from 'node:os';
import { ConfigError, type Config } from './config.js';

export type MemoryPart = 'content' | 'pages' | 'media' | 'share-cards' | 'search';

/** Each part's share of a process's slice, and the setting that replaces it when given. */
const PARTS: Record<MemoryPart, { share: number; setting?: keyof Config }> = {
  content: { share: 1 / 16, setting: 'CACHE_MAX_BYTES' },
  pages: { share: 1 / 16, setting: 'PAGE_CACHE_MAX_BYTES' },
  media: { share: 1 / 8, setting: 'MEDIA_CACHE_MAX_BYTES' },
  'share-cards': { share: 1 / 32, setting: 'SHARE_CARD_CACHE_MAX_BYTES' },
  // The answers to searches (the index is as large as the content: headroom, measured).
  search: { share: 1 / 64 },
};

/** With no limit known, each process's shares are of this (what deploy/k8s and deploy/compose.yaml give a process). */
const NOMINAL_LIMIT = 512 * 1024 * 1024;
/** Under a real limit, the most of a process's slice the parts may take together. */
const PARTS_AT_MOST = 1 / 2;
/**
 * A transform at once per this much of a slice (no more than the cores): a 24-megapixel photo made
 * into AVIF on one libvips thread peaks at 65-85 MiB above the process's own (docs/decisions/055).
 */
const SLICE_PER_TRANSFORM = 256 * 1024 * 1024;
const MIB = 1024 * 1024;

export interface MemoryBudget {
  /** The service's limit on this machine, and where it came from. */
  limit: number;
  source: 'MEMORY_LIMIT_BYTES' | 'cgroup' | 'none';
  /** This process's part of the limit: the limit shared by the service's processes (workers and their primary). */
  slice: number;
  /** A real limit (set, or the cgroup's): only then does the process shed near it. */
  enforced: boolean;
  /** Each part's bound in this process, in bytes. */
  shares: Record<MemoryPart, number>;
  /** Image work: transforms at once (MEDIA_TRANSFORMS, else what the slice and the cores allow) on one libvips thread each. */
  image: { transforms: number; threads: number };
}

/** The cgroup's limit, if it is one: libuv says 0, or a number past the machine's memory, when there is none. */
function cgroupLimit(): number | undefined {
  const limit = process.constrainedMemory();
  return limit > 0 && limit < totalmem() ? limit : undefined;
}

/**
 * This process's budget: `processes` is how many processes of the service share the machine's
 * limit (one, or the workers and their primary). Throws a ConfigError when the parts' own settings
 * leave no headroom under a real limit.
 */
export function memoryBudget(config: Config, processes = 1, cgroup: number | undefined = cgroupLimit()): MemoryBudget {
  const source = config.MEMORY_LIMIT_BYTES !== undefined ? 'MEMORY_LIMIT_BYTES' : cgroup !== undefined ? 'cgroup' : 'none';
  const limit = config.MEMORY_LIMIT_BYTES ?? cgroup ?? NOMINAL_LIMIT * processes;
  const slice = Math.floor(limit / processes);
  const shares = Object.fromEntries(
    Object.entries(PARTS).map(([part, { share, setting }]) => {
      const given = setting && (config[setting] as number | undefined);
      return [part, given ?? Math.max(MIB, Math.floor(slice * share))];
    }),
  ) as Record<MemoryPart, number>;
  const enforced = source !== 'none';
  const taken = Object.values(shares).reduce((sum, n) => sum + n, 0);
  if (enforced && taken > slice * PARTS_AT_MOST) {
    const given = Object.values(PARTS).flatMap(({ setting }) => (setting && config[setting] !== undefined ? [setting] : []));
    throw new ConfigError(
      `invalid configuration:\n  ${given.join(', ') || 'MEMORY_LIMIT_BYTES'}: the caches would take ${mib(taken)} of this process's ${mib(slice)} ` +
        `(${source} ${mib(limit)}${processes > 1 ? ` shared by ${processes} processes` : ''}); at most half may go to caches, ` +
        'the rest is the heap, libvips and the allocator: lower them or raise the limit',
    );
  }
  const transforms = config.MEDIA_TRANSFORMS ?? Math.max(1, Math.min(availableParallelism(), Math.floor(slice / SLICE_PER_TRANSFORM)));
  return { limit, source, slice, enforced, shares, image: { transforms, threads: 1 } };
}

const mib = (bytes: number) => `${Math.round(bytes / MIB)} MiB`;
