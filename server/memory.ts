/**
 * The memory budget in this process (docs/operations/memory.md): each bounded part on /metrics with
 * what it holds against its share (and /status from them), and the watch that sheds near the limit:
 * the caches halved, least recently used out, and new picture transforms waiting for room.
 */
import type { Logger } from './observability/logger.js';
import { gaugeOnScrape, type Metrics } from './observability/metrics.js';
import { BurstLog } from './observability/burst-log.js';
import { MemoryPressure, type ShrinkablePart } from './reliability/memory-pressure.js';
import type { MemoryBudget, MemoryPart } from './settings/memory-budget.js';

/** What a cache holds, and how it lets go of its least recently used entries. */
type Held = Pick<ShrinkablePart, 'memoryHeld' | 'shrinkTo'>;

export interface MemoryWatch {
  budget: MemoryBudget;
  /** For the media endpoint's transforms: resolves when there is room, throws `busy` when none comes in time. */
  room: (waitMs: number) => Promise<void>;
  /** The parts, once they are made (a part switched off, such as the page cache in development, is left out). */
  watch(parts: Record<MemoryPart, Held | undefined>): void;
  stop(): void;
}

export function memoryWatch(budget: MemoryBudget, { metrics, log }: { metrics: Metrics; log: Logger }): MemoryWatch {
  let parts: ShrinkablePart[] = [];
  const burst = new BurstLog(60_000);
  const pressure = new MemoryPressure({
    slice: budget.slice,
    enforced: budget.enforced,
    parts: () => parts,
    onShed: (event) => {
      metrics.memoryShed().inc();
      if (burst.first('shed')) {
        log.warn(
          { ...event, limit: budget.limit, slice: budget.slice },
          'near the memory limit: caches shrunk, new picture transforms wait',
        );
      }
    },
  });
  const { registry } = metrics;
  gaugeOnScrape(
    registry,
    {
      name: 'memory_limit_bytes',
      help: "The service's memory limit on this machine, by where it came from.",
      labelName: 'source',
      aggregator: 'max',
    },
    () => ({ [budget.source]: budget.limit }),
  );
  gaugeOnScrape(
    registry,
    {
      name: 'memory_budget_bytes',
      help: "Each part's share of the memory budget, and the whole of this process's slice (summed over workers).",
      labelName: 'part',
    },
    () => ({ ...budget.shares, slice: budget.slice }),
  );
  gaugeOnScrape(
    registry,
    { name: 'memory_part_bytes', help: 'Bytes each part of the memory budget holds (summed over workers).', labelName: 'part' },
    () => Object.fromEntries(parts.map((p) => [p.name, p.memoryHeld()])),
  );
  gaugeOnScrape(
    registry,
    {
      name: 'memory_pressure',
      help: 'Whether a process is past its shedding line (its caches shrink, picture transforms wait): 1 yes, 0 no.',
      aggregator: 'max',
    },
    () => (pressure.high ? 1 : 0),
  );
  return {
    budget,
    room: (waitMs) =>
      pressure.room(waitMs).catch((error: unknown) => {
        metrics.shed('memory').inc();
        throw error;
      }),
    watch(made) {
      parts = Object.entries(made).flatMap(([name, part]) =>
        part ? [{ name, share: budget.shares[name as MemoryPart], memoryHeld: part.memoryHeld, shrinkTo: part.shrinkTo }] : [],
      );
      pressure.start();
    },
    stop: () => pressure.stop(),
  };
}
