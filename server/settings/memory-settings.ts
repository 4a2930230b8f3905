/** The memory budget's setting (docs/operations/memory.md), part of the one schema in config.ts. */
import { int } from './setting-kinds.js';

export const MEMORY_SETTINGS = {
  MEMORY_LIMIT_BYTES: int(128 * 1024 * 1024, 1024 * 1024 * 1024 * 1024)
    .optional()
    .describe(
      "the memory the service may use on this machine (its container's limit), shared by its processes: each cache takes its share of it (unless its own setting is given), and near it the caches shrink and new picture transforms wait; unset: the cgroup's limit (`memory.max`, `memory.limit_in_bytes`), else shares of 512 MiB per process with nothing shed (docs/operations/memory.md)",
    ),
};
