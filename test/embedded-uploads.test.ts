/**
 * The embedded content API serves its editors' uploads as a CMS does, over real HTTP: every image
 * and film its answers name is there with its type; the photos are camera-sized JPEGs of a
 * camera's weight with EXIF (GPS on the hospitals', one stored on its side); conditional and range
 * requests are answered; junk is refused and reads nothing.
 */
import exifReader from 'exif-reader';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, type ApiName } from '../shared/contract/api-paths.js';
import { startEmbeddedApi, type EmbeddedApi } from '../server/embedded-api/embedded-api.js';
import { uploadPaths } from './support/draw-uploads.js';
import { sampleApiPath as concretePath } from './support/sample-urls.js';

describe('the embedded content API’s uploads', () => {
  let api: EmbeddedApi;
  let sources: string[];
  beforeAll(async () => {
    api = await startEmbeddedApi();
    const found: string[] = [];
    for (const name of Object.keys(API_PATHS) as ApiName[]) {
      const body = (await (await fetch(api.url + concretePath(name))).json()) as { data: unknown };
      uploadPaths(body.data, found);
    }
    sources = [...new Set(found)];
  }, 120_000);
  afterAll(() => api.close());

  it('every image and film an answer names is served with its type', { timeout: 180_000 }, async () => {
    expect(sources.length).toBeGreaterThan(40);
    for (const src of sources) {
      const res = await fetch(api.url + src, { method: 'HEAD' });
      expect(res.status, src).toBe(200);
      const type = res.headers.get('content-type')!;
      const ext = src.slice(src.lastIndexOf('.') + 1).toLowerCase();
      const expected = {
        jpg: 'image/jpeg',
        jpeg: 'image/jpeg',
        png: 'image/png',
        webp: 'image/webp',
        svg: 'image/svg+xml',
        mp4: 'video/mp4',
        webm: 'video/webm',
        vtt: 'text/vtt',
      }[ext]!;
      expect(type, src).toContain(expected);
    }
  });

  it('names uploads as editors do: mixed case and several extensions', () => {
    expect(sources.some((s) => /\.JPG$/.test(s))).toBe(true);
    expect(sources.some((s) => /\.jpeg$/.test(s))).toBe(true);
    expect(sources.some((s) => /\/[A-Z][a-z]+-[A-Z]/.test(s))).toBe(true);
  });

  it('serves banners and covers as camera JPEGs: at least 2400 px wide and 1 to 3 MB', { timeout: 120_000 }, async () => {
    const photos = sources.filter((s) => /\/(banners|covers)\/.*\.(jpe?g)$/i.test(s)).slice(0, 4);
    expect(photos.length).toBeGreaterThan(0);
    for (const src of photos) {
      const body = Buffer.from(await (await fetch(api.url + src)).arrayBuffer());
      const meta = await sharp(body).metadata();
      expect(meta.format, src).toBe('jpeg');
      expect(Math.max(meta.width, meta.height), src).toBeGreaterThanOrEqual(2400);
      expect(body.length, src).toBeGreaterThan(1_000_000);
      expect(body.length, src).toBeLessThan(3_000_000);
    }
  });

  it("carries EXIF: the hospitals' photos their GPS position, one cover Orientation 6", { timeout: 60_000 }, async () => {
    const hospital = sources.find((s) => s.startsWith('/uploads/hospitals/'))!;
    const exif = exifReader((await sharp(Buffer.from(await (await fetch(api.url + hospital)).arrayBuffer())).metadata()).exif!);
    expect(exif.GPSInfo?.GPSLatitude?.length, hospital).toBe(3);
    expect(exif.Image?.Make).toBe('Canon');
    const sideways = Buffer.from(await (await fetch(`${api.url}/uploads/covers/Eye-Exam.JPG`)).arrayBuffer());
    expect((await sharp(sideways).metadata()).orientation).toBe(6);
  });

  it('answers a conditional request with 304 and a range of a film with 206', async () => {
    const film = sources.find((s) => s.endsWith('.mp4'))!;
    const whole = await fetch(api.url + film);
    const bytes = new Uint8Array(await whole.arrayBuffer());
    const again = await fetch(api.url + film, { headers: { 'if-none-match': whole.headers.get('etag')! } });
    expect(again.status).toBe(304);
    // As a CMS's file server does, by date too (jshttp's fresh, which Express and send use).
    const since = await fetch(api.url + film, { headers: { 'if-modified-since': whole.headers.get('last-modified')! } });
    expect(since.status).toBe(304);
    const part = await fetch(api.url + film, { headers: { range: 'bytes=10-19' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${bytes.length}`);
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(bytes.slice(10, 20));
  });

  it('refuses what names no upload, and reads nothing for it', async () => {
    for (const path of [
      '/uploads/%2e%2e/%2e%2e/package.json',
      '/uploads/covers/..%2F..%2Fembedded-api.ts',
      '/uploads/covers/a%00.JPG',
      '/uploads/covers\\x.JPG',
      '/uploads/covers/nothing.JPG',
      '/uploads/%E0%A4%A',
    ]) {
      const res = await fetch(api.url + path);
      expect([400, 404], path).toContain(res.status);
    }
  });
});
