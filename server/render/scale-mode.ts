/**
 * The scaling mode is decided from the User-Agent on the server, so the first
 * paint is already scaled. Edge, Opera and Firefox get a transform; everything else zoom.
 * Each distinct User-Agent string is parsed once.
 */
import { LRUCache } from 'lru-cache';
import { UAParser } from 'ua-parser-js';

export type ScaleMode = 'zoom' | 'transform';

const TRANSFORM_BROWSERS = /\b(edge|opera|firefox)\b/i;
const MAX_UA_LENGTH = 512;
const memo = new LRUCache<string, ScaleMode>({ max: 2_000 });

export function scaleModeFor(userAgent: string | undefined): ScaleMode {
  if (!userAgent) return 'zoom';
  const ua = userAgent.slice(0, MAX_UA_LENGTH);
  let mode = memo.get(ua);
  if (!mode) {
    const name = new UAParser(ua).getBrowser().name ?? '';
    mode = TRANSFORM_BROWSERS.test(name) ? 'transform' : 'zoom';
    memo.set(ua, mode);
  }
  return mode;
}
