/**
 * Shedding before dying (docs/operations/memory.md): when this process's resident set nears its
 * slice of the memory limit, the caches shrink first, least recently used out, and new picture
 * transforms wait for room, rather than the process growing past the limit and being killed. The
 * resident set is read each second (and again whenever a transform asks for room); while it is
 * past the line, each cache is halved at every reading. Nothing is watched without a real limit
 * (the setting or the cgroup's): there is nothing to keep under, and a test process running many
 * services must not have their caches emptied.
 */
import { problem } from '../http/problem.js';

/** A bounded part of the budget that can give memory back. */
export interface ShrinkablePart {
  readonly name: string;
  /** Its share of the budget, in bytes. */
  readonly share: number;
  /** What it holds now, in bytes. */
  memoryHeld(): number;
  /** Lets go of its least recently used entries until it holds at most `bytes`. */
  shrinkTo(bytes: number): void;
}

interface ShedEvent {
  rss: number;
  line: number;
  /** What the parts held before and after. */
  before: number;
  after: number;
}

export interface MemoryPressureOptions {
  /** This process's slice of the limit. */
  slice: number;
  enforced: boolean;
  parts: () => readonly ShrinkablePart[];
  onShed?: (event: ShedEvent) => void;
  /** The resident set now (this process's, by default). */
  rss?: () => number;
}

/** Near the limit: past this share of the slice, caches shrink and new transforms wait. */
const SHED_AT = 0.85;
const CHECK_MS = 1_000;

export class MemoryPressure {
  readonly line: number;
  readonly #options: MemoryPressureOptions;
  readonly #rss: () => number;
  readonly #waiters = new Set<() => void>();
  #timer: NodeJS.Timeout | undefined;
  #high = false;

  constructor(options: MemoryPressureOptions) {
    this.#options = options;
    this.#rss = options.rss ?? (() => process.memoryUsage.rss());
    this.line = Math.floor(options.slice * SHED_AT);
  }

  start(): void {
    if (!this.#options.enforced || this.#timer) return;
    this.#timer = setInterval(() => this.check(), CHECK_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    for (const admit of this.#waiters) admit();
  }

  /** Past the line at the last reading. */
  get high(): boolean {
    return this.#high;
  }

  /** Reads the resident set: past the line, the caches are halved; under it, whatever waits for room goes on. */
  check(): void {
    const rss = this.#rss();
    this.#high = this.#options.enforced && rss >= this.line;
    if (!this.#high) {
      for (const admit of this.#waiters) admit();
      return;
    }
    const parts = this.#options.parts();
    const before = parts.reduce((sum, p) => sum + p.memoryHeld(), 0);
    for (const part of parts) part.shrinkTo(Math.floor(part.memoryHeld() / 2));
    this.#options.onShed?.({ rss, line: this.line, before, after: parts.reduce((sum, p) => sum + p.memoryHeld(), 0) });
  }

  /**
   * Resolves once the resident set is under the line (at once when it is); throws a `busy` problem
   * when it is not within `waitMs`. New picture transforms ask before they start.
   */
  async room(waitMs: number): Promise<void> {
    if (!this.#options.enforced || this.#rss() < this.line) return;
    const admitted = await new Promise<boolean>((resolve) => {
      const admit = () => {
        clearTimeout(timer);
        this.#waiters.delete(admit);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.#waiters.delete(admit);
        resolve(false);
      }, waitMs);
      this.#waiters.add(admit);
    });
    if (!admitted) throw problem('busy', 'the service is near its memory limit; try again shortly', 2);
  }
}

/**
 * Lets go of an lru-cache's least recently used entries until it holds at most `bytes` (its
 * calculated size). Entries being fetched are left alone (lru-cache's iterators skip them): letting
 * go of one would abort the load its requests wait for.
 */
export function shrinkLru<K>(lru: { calculatedSize: number; rkeys(): Iterable<K>; delete(key: K): boolean }, bytes: number): void {
  for (const key of [...lru.rkeys()]) {
    if (lru.calculatedSize <= bytes) return;
    lru.delete(key);
  }
}
