/**
 * What a page render read from the data cache: how long the rendered page may be reused (until
 * the first of its answers stops being fresh, or, when one was stale, for the short while the
 * cache allows), and the validators of the answers it was drawn from, which make the page's own.
 */
import { API_PATHS } from '../../shared/contract/api-paths.js';
import type { CacheResult } from '../proxy/cached-answer.js';

/** How long a page with search results beside its own content may be reused: as long as the news list stays fresh. */
const BESIDE_SEARCH_REUSE_MS = API_PATHS.news.maxAge * 1000;
/** How long a page that left out a part it could not read may be reused. */
const FAILED_READ_REUSE_MS = 2_000;

export class RenderReads {
  /** Epoch ms until which the page may be reused. */
  reuseUntil = Infinity;
  readonly etags: string[] = [];
  readonly tags = new Set<string>();
  /** When a read was refused for now: how soon to ask again (Retry-After). */
  retryAfterS: number | undefined;

  note(result: CacheResult): void {
    this.reuseUntil = Math.min(this.reuseUntil, result.reuseUntil);
    this.etags.push(result.answer.body.etag);
    for (const tag of result.answer.tags) this.tags.add(tag);
  }

  /**
   * A read failed, and the page shows what it could without it (a section left out): reused only
   * as briefly as a page drawn from stale data, so that it is whole again soon after its data is.
   */
  noteFailure(): void {
    this.reuseUntil = Math.min(this.reuseUntil, Date.now() + FAILED_READ_REUSE_MS);
  }

  /**
   * The page shows search results (the index, version `version`): it is drawn anew each time, never
   * kept (a purge changes the index a moment after it drops the pages it names), and its ETag names
   * the index it was drawn from. A few results `beside` the page's own content, under words the page
   * chose (not a visitor's, so no visitor can fill the page cache with them), keep it no longer
   * than a news list stays fresh.
   */
  noteSearch(version: number, beside = false): void {
    this.reuseUntil = beside ? Math.min(this.reuseUntil, Date.now() + BESIDE_SEARCH_REUSE_MS) : 0;
    this.etags.push(`search:${version}`);
  }

  /** What the page shows changes at `at` (an opening hour): not reused past it, and its ETag tells the two apart. */
  noteChange(at: number): void {
    this.reuseUntil = Math.min(this.reuseUntil, at);
    this.etags.push(`until:${at}`);
  }

  noteRetryAfter(seconds: number): void {
    this.retryAfterS = Math.max(this.retryAfterS ?? 0, seconds);
  }
}
