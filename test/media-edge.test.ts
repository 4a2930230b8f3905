/**
 * Media variants through the shipped edge (deploy/varnish/default.vcl, a real varnishd): at most
 * three copies per address whatever Accept browsers send, immutable variants kept, and a purge of
 * a source's tag reaching them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeRef, mediaPath } from '../shared/media-url.js';
import { cameraJpeg, versionOf } from './support/media-fixtures.js';
import { startMediaOrigin, type MediaOrigin } from './support/media-origin.js';
import { metric } from './support/polling.js';
import { startService, type RunningService } from './support/start-service.js';
import { startVarnish, type Varnish } from './support/varnish.js';

/** What browsers send for an image, and the format each must get. */
const BROWSERS = [
  ['Chrome', 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8', 'image/avif'],
  ['Firefox', 'image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5', 'image/avif'],
  [
    'Safari 17',
    'image/webp,image/avif,image/jxl,image/heic,image/heic-sequence,video/*;q=0.8,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5',
    'image/avif',
  ],
  ['an old Chrome', 'image/webp,image/apng,image/*,*/*;q=0.8', 'image/webp'],
  ['a browser refusing AVIF', 'image/avif;q=0,image/webp,*/*', 'image/webp'],
  ['an old Safari', 'image/png,image/svg+xml,image/*;q=0.8,video/*;q=0.8,*/*;q=0.5', 'image/jpeg'],
  ['curl', '*/*', 'image/jpeg'],
] as const;

describe('media through the edge', () => {
  let origin: MediaOrigin;
  let svc: RunningService;
  let edge: Varnish;
  let photo: Buffer;

  beforeAll(async () => {
    origin = await startMediaOrigin();
    photo = await cameraJpeg(1600, 1200);
    origin.files.set('/uploads/lobby.jpg', { body: photo });
    svc = await startService({ MEDIA_ORIGINS: origin.url, TRUSTED_PROXIES: '127.0.0.1' });
    edge = await startVarnish(Number(new URL(svc.url).port));
  });
  afterAll(async () => {
    await edge.stop();
    await svc.close();
    await origin.stop();
  });

  const served = async () =>
    (await metric(svc, 'media_requests_total{result="transformed",reason=""}')) +
    (await metric(svc, 'media_requests_total{result="memory",reason=""}'));

  it('keeps at most three copies of an address, one per format, whatever Accept says', async () => {
    const path = mediaPath(encodeRef(`${origin.url}/uploads/lobby.jpg`), versionOf(photo), 640);
    const seen = new Map<string, string>();
    for (const [browser, accept, type] of BROWSERS) {
      const res = await fetch(edge.url + path, { headers: { accept, 'accept-encoding': 'gzip, br' } });
      expect(res.status, browser).toBe(200);
      expect(res.headers.get('content-type'), browser).toBe(type);
      expect(res.headers.get('x-edge'), browser).toBe(seen.has(type) ? 'HIT' : 'MISS');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(res.headers.get('vary')).toBe('Accept');
      const etag = res.headers.get('etag')!;
      if (seen.has(type)) expect(etag).toBe(seen.get(type));
      seen.set(type, etag);
      await res.arrayBuffer();
    }
    // The service answered three requests: one per format.
    expect(await served()).toBe(3);
  });

  it('lets go of a source’s variants when its tag is purged', async () => {
    const path = mediaPath(encodeRef(`${origin.url}/uploads/lobby.jpg`), '0', 384);
    const first = await fetch(edge.url + path, { headers: { accept: 'image/webp' } });
    await first.arrayBuffer();
    const again = await fetch(edge.url + path, { headers: { accept: 'image/webp' } });
    await again.arrayBuffer();
    expect(again.headers.get('x-edge')).toBe('HIT');
    const tag = first.headers.get('cache-tag')!.split(', ')[1]!;
    expect(tag).toMatch(/^media:[0-9a-f]{12}$/);
    const purge = await fetch(edge.url, { method: 'PURGE', headers: { 'x-purge-tags': tag } });
    expect(purge.status).toBe(200);
    const after = await fetch(edge.url + path, { headers: { accept: 'image/webp' } });
    await after.arrayBuffer();
    expect(after.status).toBe(200);
    expect(after.headers.get('x-edge')).toBe('MISS');
  });

  it('passes junk to the service, which refuses it, and keeps nothing', async () => {
    const path = `${mediaPath(encodeRef(`${origin.url}/uploads/lobby.jpg`), '0', 384)}?w=5000`;
    for (let i = 0; i < 2; i++) {
      const res = await fetch(edge.url + path);
      expect(res.status).toBe(400);
      expect(res.headers.get('x-edge')).toBe('MISS');
    }
  });
});
