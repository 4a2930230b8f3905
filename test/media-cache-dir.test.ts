/**
 * The media cache on disk (MEDIA_CACHE_DIR): a service started on the directory another left
 * serves without fetching or transforming again; a corrupt file is ignored and made again; the
 * directory stays within its bound.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeRef, MEDIA_WIDTHS, mediaPath } from '../shared/media-url.js';
import { cameraJpeg, versionOf } from './support/media-fixtures.js';
import { startMediaOrigin, type MediaOrigin } from './support/media-origin.js';
import { metric } from './support/polling.js';
import { startService } from './support/start-service.js';

const AVIF = 'image/avif,image/webp,*/*;q=0.8';

/** Every file under a directory, with its size. */
function filesUnder(dir: string): { path: string; size: number }[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => ({ path: join(e.parentPath, e.name), size: statSync(join(e.parentPath, e.name)).size }));
}

describe('media cache directory', () => {
  let origin: MediaOrigin;
  let dir: string;
  let photo: Buffer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'media-dir-'));
    origin = await startMediaOrigin();
    photo = await cameraJpeg(2000, 1500);
    origin.files.set('/uploads/ward.jpg', { body: photo });
  });
  afterAll(async () => {
    await origin.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const env = () => ({ MEDIA_ORIGINS: origin.url, MEDIA_CACHE_DIR: dir });
  const source = () => `${origin.url}/uploads/ward.jpg`;
  const asked = () =>
    [
      [mediaPath(encodeRef(source()), versionOf(photo), 640), AVIF],
      [mediaPath(encodeRef(source()), '0', 640), 'image/webp'],
      [mediaPath(encodeRef(source()), '0', 1080), '*/*'],
    ] as const;

  it('a second service on the same directory serves without fetching or transforming again', async () => {
    const first = await startService(env());
    const bodies: Buffer[] = [];
    try {
      for (const [path, accept] of asked()) {
        const res = await fetch(first.url + path, { headers: { accept } });
        expect(res.headers.get('x-cache')).toBe('MISS');
        bodies.push(Buffer.from(await res.arrayBuffer()));
      }
      // Written in the background: the three variants and the original's record.
      await expect.poll(() => filesUnder(dir).length, { timeout: 5_000, message: 'the cache files' }).toBeGreaterThanOrEqual(4);
    } finally {
      await first.close();
    }
    const callsBefore = origin.totalCalls();
    const second = await startService(env());
    try {
      for (const [i, [path, accept]] of asked().entries()) {
        const res = await fetch(second.url + path, { headers: { accept } });
        expect(res.status).toBe(200);
        expect(res.headers.get('x-cache')).toBe('DISK');
        expect(Buffer.from(await res.arrayBuffer()).equals(bodies[i]!)).toBe(true);
      }
      expect(origin.totalCalls()).toBe(callsBefore);
      expect(await metric(second, 'media_requests_total{result="transformed",reason=""}')).toBe(0);
      expect(await metric(second, 'media_requests_total{result="disk",reason=""}')).toBe(3);
    } finally {
      await second.close();
    }
  });

  it('a content API at another address (the embedded one, on a new port each start) finds the records its photos left', async () => {
    const moved = mkdtempSync(join(tmpdir(), 'media-dir-moved-'));
    const versions = async (svc: { url: string }) =>
      [...(await (await fetch(`${svc.url}/api/banner`)).text()).matchAll(/"ref":"([^"]+)","version":"([^"]+)"/g)].map(
        ([, ref, v]) => `${ref} ${v}`,
      );
    try {
      const first = await startService({ MEDIA_CACHE_DIR: moved });
      let seen: string[];
      try {
        // Described within the answer's budget, and each record written in the background. The
        // timeout covers a look too: the first answer, which describes the camera-sized banners,
        // takes seconds on a loaded machine.
        seen = await vi.waitFor(
          async () => {
            const described = await versions(first);
            for (const v of described) expect(v).not.toMatch(/ 0$/);
            return described;
          },
          { timeout: 20_000, message: 'the banners described' },
        );
        const records = new Set(seen).size;
        await expect
          .poll(() => filesUnder(join(moved, 'originals')).length, { timeout: 5_000, message: 'the records on disk' })
          .toBeGreaterThanOrEqual(records);
      } finally {
        await first.close();
      }
      const second = await startService({ MEDIA_CACHE_DIR: moved });
      try {
        expect(second.url).not.toBe(first.url);
        expect(await versions(second)).toEqual(seen!);
        expect(await metric(second, 'media_origin_fetches_total{result="ok"}')).toBe(0);
        expect(await metric(second, 'media_origin_fetches_total{result="not_modified"}')).toBe(0);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(moved, { recursive: true, force: true });
    }
  });

  it('ignores a partial or corrupt file, makes it again, and drops temporary files a crash left behind, not one being written', async () => {
    const variant = filesUnder(dir).find((f) => f.path.endsWith('-640.avif'))!;
    writeFileSync(variant.path, readFileSync(variant.path).subarray(0, 100));
    const stray = join(dir, 'variants', 'left-by-a-crash.avif.1a2b3c.tmp');
    writeFileSync(stray, 'partial');
    const anHourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(stray, anHourAgo, anHourAgo);
    // Another process's write under way, in a directory the starting service shares: left alone.
    const underWay = join(dir, 'variants', 'being-written.avif.4d5e6f.tmp');
    writeFileSync(underWay, 'partial');
    const svc = await startService(env());
    try {
      const res = await fetch(svc.url + asked()[0][0], { headers: { accept: AVIF } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-cache')).toBe('MISS');
      const body = Buffer.from(await res.arrayBuffer());
      expect(svc.logs.some((l) => l.msg === 'media cache file is partial or corrupt: ignored, and made again')).toBe(true);
      await expect
        .poll(() => statSync(variant.path).size, { timeout: 5_000, message: 'the variant written again' })
        .toBeGreaterThan(body.length);
      expect(
        filesUnder(dir)
          .filter((f) => f.path.endsWith('.tmp'))
          .map((f) => f.path),
      ).toEqual([underWay]);
    } finally {
      await svc.close();
    }
    const after = await startService(env());
    try {
      const res = await fetch(after.url + asked()[0][0], { headers: { accept: AVIF } });
      expect(res.headers.get('x-cache')).toBe('DISK');
    } finally {
      await after.close();
    }
  });

  it('stays within MEDIA_CACHE_DIR_MAX_BYTES, dropping the least recently used', async () => {
    const bound = 1024 * 1024;
    const small = mkdtempSync(join(tmpdir(), 'media-dir-small-'));
    const svc = await startService({ MEDIA_ORIGINS: origin.url, MEDIA_CACHE_DIR: small, MEDIA_CACHE_DIR_MAX_BYTES: String(bound) });
    try {
      let written = 0;
      for (const width of MEDIA_WIDTHS) {
        for (const accept of [AVIF, 'image/webp', '*/*']) {
          const res = await fetch(svc.url + mediaPath(encodeRef(source()), '0', width), { headers: { accept } });
          written += (await res.arrayBuffer()).byteLength;
        }
      }
      expect(written).toBeGreaterThan(bound);
      // Each write is followed by pruning, in the background: once both are done the directory
      // holds what the service counts, within the bound (a directory past it never gets here).
      const total = () => filesUnder(small).reduce((sum, f) => sum + f.size, 0);
      await vi.waitFor(
        async () => {
          const counted = await metric(svc, 'media_cache_bytes{store="disk"}');
          expect(total()).toBeLessThanOrEqual(bound);
          expect(total()).toBe(counted);
        },
        { timeout: 5_000, message: 'the directory within its bound' },
      );
      expect(total()).toBeGreaterThan(bound / 4);
    } finally {
      await svc.close();
      rmSync(small, { recursive: true, force: true });
    }
  });
});
