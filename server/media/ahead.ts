/**
 * The first screen's pictures made ahead (docs/decisions/039). When a page is rendered, it names
 * the pictures it preloads (ContentImage's `priority`: the first screen's largest, and the home
 * banner's phone crop) by their srcset. Their variants at the widths a phone's screen picks (2×
 * to 3×) are made in the background, in AVIF (what every phone of the last years asks for), so
 * that the phone that asks for one finds it made instead of waiting for a transform. One at a
 * time per process, and only while no visitor's transform runs or waits: it never takes a slot a
 * visitor could have, nor a place in its queue. Bounded: past its queue, or after waiting
 * MAX_WAIT_MS for a quiet moment, a picture is left to be made when asked for.
 */
import { MEDIA_PREFIX } from '../../shared/media-url.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '../observability/logger.js';

/**
 * The widths a phone's screen takes for a first screen's picture at 2× to 3×: from an expert's
 * portrait (116 px: 384) to the screen's width (390 px: 1080 or 1600).
 */
const PHONE_WIDTHS = new Set(['384', '640', '828', '1080', '1600']);
/** Variants waiting to be made ahead; past it, new ones are not. */
const MAX_WAITING = 64;
/** How long a variant waits for the visitors' transforms to be done, checked every POLL_MS; then it is dropped. */
const MAX_WAIT_MS = 10_000;
const POLL_MS = 200;

/** The media addresses, among the candidates of a srcset, that a phone's screen picks. */
function phoneVariants(srcset: string): string[] {
  return srcset
    .split(', ')
    .map((candidate) => candidate.split(' ')[0]!)
    .filter((path) => path.startsWith(`${MEDIA_PREFIX}/`) && PHONE_WIDTHS.has(path.split('/').at(-3)!));
}

export class MadeAhead {
  readonly #waiting: string[] = [];
  /** What was asked for already, so that a page rendered again asks nothing twice (bounded like the queue). */
  readonly #asked = new Set<string>();
  #running = false;

  /**
   * `make` makes one variant in AVIF, or refuses to (busy, not an image, not allowed): its failures
   * are only logged; `quiet` says that no visitor's transform runs or waits.
   */
  constructor(
    /** Off (MEDIA_MAKE_AHEAD): nothing is made ahead. */
    private readonly enabled: boolean,
    private readonly make: (path: string) => Promise<void>,
    private readonly quiet: () => boolean,
    private readonly log: Logger,
  ) {}

  /** Makes the phone's variants of the pictures a rendered page preloads (their srcsets). */
  page(srcsets: readonly string[]): void {
    if (!this.enabled) return;
    for (const path of srcsets.flatMap(phoneVariants)) {
      if (this.#asked.has(path) || this.#waiting.length >= MAX_WAITING) continue;
      if (this.#asked.size >= MAX_WAITING * 16) this.#asked.clear();
      this.#asked.add(path);
      this.#waiting.push(path);
    }
    void this.#drain();
  }

  async #drain(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    for (let path = this.#waiting.shift(); path; path = this.#waiting.shift()) {
      let waited = 0;
      while (!this.quiet() && waited < MAX_WAIT_MS) {
        await sleep(POLL_MS);
        waited += POLL_MS;
      }
      if (!this.quiet()) continue;
      await this.make(path).catch((error: unknown) => {
        this.log.debug({ path, err: String(error) }, 'a first screen picture was not made ahead');
      });
    }
    this.#running = false;
  }
}
