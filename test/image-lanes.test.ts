/**
 * Image work in two lanes (server/media/transform.ts): a first view describes every new image its
 * page names at once, and those analyses are never refused for the variants' bound, which still
 * holds while they run.
 */
import { describe, expect, it } from 'vitest';
import type { GateRefusal } from '../server/reliability/concurrency-gate.js';
import { Transformer } from '../server/media/transform.js';
import { plainJpegs } from './support/media-fixtures.js';

describe('image lanes', () => {
  it('forty analyses at once all finish while a burst of variants meets its bound', async () => {
    const refused: GateRefusal[] = [];
    const transformer = new Transformer({
      transforms: 1,
      threads: 1,
      maxPixels: 50_000_000,
      timeoutMs: 10_000,
      onRefused: (why) => refused.push(why),
    });
    const images = await plainJpegs(40, 640, 480);
    // One slot and sixteen waiting: of forty variants asked at once, the rest are refused.
    const variants = Promise.allSettled(
      images.map((bytes) => transformer.variant(bytes, 'jpeg', { width: 640, height: 480 }, 320, 'webp')),
    );
    const analyses = images.map((bytes) => transformer.analyse(bytes, 'jpeg'));

    const looked = await Promise.all(analyses);
    expect(looked).toEqual(images.map(() => ({ opaque: true, color: expect.stringMatching(/^#[0-9a-f]{6}$/) })));

    const made = await variants;
    const refusedVariants = made.filter((m) => m.status === 'rejected').map((m) => String(m.reason));
    expect(made.filter((m) => m.status === 'fulfilled')).toHaveLength(17);
    expect(refusedVariants).toHaveLength(23);
    for (const why of refusedVariants) expect(why).toMatch(/too many image transforms/);
    expect(refused).toEqual(refusedVariants.map(() => 'queue_full'));
  });
});
