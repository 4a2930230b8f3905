/**
 * A phone's first screen, through the real service over HTTP with the embedded content API's
 * camera-sized photos: the home banner is art-directed (a phone gets the banner's right part,
 * cut for its screen, through <picture>, and preloads that and nothing of the desktop's), and
 * rendering a page makes its first screen's variants for phones ahead, so that the phone that
 * asks for one finds it made (docs/decisions/039).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metric } from './support/polling.js';
import { startService, type RunningService } from './support/start-service.js';

const AVIF_BROWSER = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';

/** The addresses of a srcset (`url 828w, …`). */
const candidates = (srcset: string) => srcset.split(', ').map((c) => c.split(' ')[0]!);

describe("a phone's first screen", () => {
  let svc: RunningService;
  beforeAll(async () => {
    svc = await startService({ MEDIA_TRANSFORMS: '2' });
  });
  afterAll(() => svc.close());

  it('the home banner gives a phone its right part, cut to its box, and preloads it for phones only', async () => {
    const html = await (await fetch(`${svc.url}/`)).text();
    const source = /<picture><source media="\(max-width: 500px\)" srcSet="([^"]+)" sizes="([^"]+)"\/><img[^>]*class="slide-image"/.exec(
      html,
    );
    expect(source, 'a <picture> with a phone source around the banner').not.toBeNull();
    for (const address of candidates(source![1]!)) expect(address).toMatch(/^\/_media\/right-2x1\/\d+\//);
    expect(source![2]).toMatch(/^\(max-width: 500px\) max\(100vw, 360px\)/);
    // Each preload applies to its own screens: the crop to phones, the whole banner to the rest.
    const preloads = [...html.matchAll(/<link rel="preload" as="image"[^>]*>/g)].map((m) => m[0]);
    expect(preloads.some((l) => /media="\(max-width: 500px\)"/.test(l) && /imageSrcSet="\/_media\/right-2x1\//.test(l))).toBe(true);
    expect(preloads.some((l) => /media="\(min-width: 501px\)"/.test(l) && !/right-2x1/.test(l))).toBe(true);
  });

  it.each(['/hzhf/kpzs', '/news/index', '/gnyy/index', '/jtjj/ryjx'])(
    '%s: a list’s cards offer a phone variants up to 640 px, and wider ones to the rest',
    async (path) => {
      const html = await (await fetch(svc.url + path)).text();
      const cards = [...html.matchAll(/<picture><source media="\(max-width: 500px\)" srcSet="([^"]+)"[^>]*\/><img[^>]*srcSet="([^"]+)"/g)];
      expect(cards.length, 'cards drawn through <picture>').toBeGreaterThan(2);
      const width = (address: string) => Number(address.split('/').at(-3));
      for (const [, phone, rest] of cards) {
        expect(Math.max(...candidates(phone!).map(width))).toBe(640);
        expect(Math.max(...candidates(rest!).map(width))).toBeGreaterThan(640);
      }
      // The first card's picture is preloaded: on a phone, up to the 640 px variant.
      const preload = [...html.matchAll(/<link rel="preload" as="image"[^>]*>/g)]
        .map((m) => m[0])
        .find((l) => /media="\(max-width: 500px\)"/.test(l));
      expect(Math.max(...candidates(/imageSrcSet="([^"]+)"/.exec(preload ?? '')?.[1] ?? '').map(width)), 'a preload for phones').toBe(640);
    },
  );
});

describe('a page rendered for the first time', () => {
  let svc: RunningService;
  let dir: string;
  beforeAll(async () => {
    // A media directory of its own: the run's (demo-media-dir.ts) may hold these variants already.
    dir = mkdtempSync(join(tmpdir(), 'first-screen-media-'));
    svc = await startService({ MEDIA_TRANSFORMS: '2', MEDIA_MAKE_AHEAD: 'on', MEDIA_CACHE_DIR: dir });
  });
  afterAll(async () => {
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('makes its first screen\u2019s variants for phones ahead: the phone finds them made', async () => {
    const transforms = () => metric(svc, 'media_transform_duration_seconds_count{format="avif"}');
    const before = await transforms();
    const html = await (await fetch(`${svc.url}/gjws/index`)).text();
    const preload = /<link rel="preload" as="image"[^>]*imageSrcSet="([^"]+)"/.exec(html)![1]!;
    // The widths a phone's screen takes, at 2× to 3×.
    const phone = candidates(preload).filter((address) => ['384', '640', '828', '1080', '1600'].includes(address.split('/').at(-3)!));
    expect(phone.length).toBeGreaterThan(0);
    // Each, in AVIF, made in the background without anything asking for it.
    await expect
      .poll(transforms, { timeout: 60_000, message: 'the first screen made ahead' })
      .toBeGreaterThanOrEqual(before + phone.length);
    for (const address of phone) {
      const res = await fetch(svc.url + address, { headers: { accept: AVIF_BROWSER } });
      expect(res.status, address).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/avif');
      expect(res.headers.get('x-cache'), address).toBe('HIT');
    }
    // Camera-sized originals, made one at a time on a shared machine.
  }, 120_000);
});
