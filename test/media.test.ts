/**
 * The media endpoint through the real service over HTTP, against a loopback origin that serves
 * test photographs made with sharp and counts every request it gets.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { encodeRef, filePath, mediaPath, type MediaWidth } from '../shared/media-url.js';
import { loadConfig } from '../server/settings/config.js';
import {
  animatedGif,
  bombPng,
  cameraJpeg,
  cmykJpeg,
  displayP3Jpeg,
  hostileSvg,
  mp4,
  P3_SRGB,
  plainJpegs,
  redPng,
  rotatedJpeg,
  transparentPng,
  versionOf,
  VTT,
} from './support/media-fixtures.js';
import { startMediaOrigin, type MediaOrigin } from './support/media-origin.js';
import { metric } from './support/polling.js';
import { startService, type RunningService } from './support/start-service.js';

const PURGE_TOKEN = 'a-purge-token-of-32-characters!!';
const AVIF_BROWSER = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
const WEBP_BROWSER = 'image/webp,*/*';

interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
}

async function ask(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  const res = await fetch(base + path, { headers, method });
  return { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

const image = (source: string, width: MediaWidth, v = '0') => mediaPath(encodeRef(source), v, width);

/** Every piece of metadata sharp can read: none may leave. */
async function expectNoMetadata(body: Buffer): Promise<void> {
  const meta = await sharp(body).metadata();
  expect(meta.exif, 'EXIF').toBeUndefined();
  expect(meta.xmp, 'XMP').toBeUndefined();
  expect(meta.iptc, 'IPTC').toBeUndefined();
  expect(meta.icc, 'ICC').toBeUndefined();
  expect(meta.space).toBe('srgb');
}

/** The mean colour of a region of an image, as sRGB. */
async function colourAt(body: Buffer, region: { left: number; top: number; width: number; height: number }) {
  // stats() reads its input, not the pipeline's output: the region is cut out first.
  const cut = await sharp(body).extract(region).removeAlpha().png().toBuffer();
  const { channels } = await sharp(cut).stats();
  return { r: channels[0]!.mean, g: channels[1]!.mean, b: channels[2]!.mean };
}

/** A PNG in three bands, red, green and blue from left to right. */
function thirds(width: number, height: number): Promise<Buffer> {
  const band = (background: string) => ({ create: { width: width / 3, height, channels: 3 as const, background } });
  return sharp({ create: { width, height, channels: 3, background: '#ff0000' } })
    .composite([
      { input: band('#00ff00'), left: width / 3, top: 0 },
      { input: band('#0000ff'), left: (2 * width) / 3, top: 0 },
    ])
    .png()
    .toBuffer();
}

describe('media endpoint', () => {
  let origin: MediaOrigin;
  let stranger: MediaOrigin;
  let svc: RunningService;
  let camera: Buffer;
  let dir: string;
  const at = (path: string) => `${origin.url}${path}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'media-test-'));
    writeFileSync(join(dir, 'red.png'), await redPng());
    origin = await startMediaOrigin();
    // Another origin on loopback that is not configured: it must never be asked for anything.
    stranger = await startMediaOrigin('127.0.0.2');
    camera = await cameraJpeg();
    const add = (path: string, body: Buffer, extra: { contentType?: string; chunked?: boolean } = {}) =>
      origin.files.set(path, { body, ...extra });
    add('/uploads/2026/11/Banner-01.JPG', camera, { contentType: 'text/html' });
    for (let i = 0; i < 8; i++) add(`/uploads/crowd-${i}.jpg`, camera);
    add('/uploads/rotated.jpeg', await rotatedJpeg());
    add('/uploads/banner-wide.png', await thirds(2400, 800));
    add('/uploads/alpha.png', await transparentPng());
    add('/uploads/p3.jpg', await displayP3Jpeg());
    add('/uploads/cmyk.jpg', await cmykJpeg());
    add('/uploads/anim.gif', await animatedGif());
    add('/uploads/hostile.svg', hostileSvg(join(dir, 'red.png'), `${origin.url}/probe`));
    add('/uploads/bomb.png', bombPng());
    const huge = Buffer.concat([camera, Buffer.alloc(9 * 1024 * 1024 - camera.length)]);
    add('/uploads/huge.jpg', huge);
    add('/uploads/huge-chunked.jpg', huge, { chunked: true });
    add('/uploads/not-an-image.png', Buffer.from('<html><body>hello</body></html>'));
    add('/uploads/truncated.jpg', camera.subarray(0, Math.floor(camera.length / 2)));
    add('/uploads/clip.mp4', mp4());
    add('/uploads/clip.vtt', VTT);
    stranger.files.set('/x.jpg', { body: camera });
    svc = await startService({ MEDIA_ORIGINS: origin.url, MEDIA_MAX_BYTES: String(8 * 1024 * 1024), PURGE_TOKEN });
  });
  afterAll(async () => {
    await svc.close();
    await origin.stop();
    await stranger.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends AVIF, WebP or JPEG by Accept, 1080 px wide, varying on Accept, with no metadata', async () => {
    const path = image(at('/uploads/2026/11/Banner-01.JPG'), 1080);
    const cases = [
      [AVIF_BROWSER, 'image/avif', 'heif'],
      [WEBP_BROWSER, 'image/webp', 'webp'],
      ['*/*', 'image/jpeg', 'jpeg'],
      ['', 'image/jpeg', 'jpeg'],
    ] as const;
    for (const [accept, type, format] of cases) {
      const res = await ask(svc.url, path, accept ? { accept } : {});
      expect(res.status, accept).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('vary')).toBe('Accept');
      expect(Number(res.headers.get('content-length'))).toBe(res.body.length);
      const meta = await sharp(res.body).metadata();
      expect(meta.format).toBe(format);
      expect([meta.width, meta.height]).toEqual([1080, 810]);
      await expectNoMetadata(res.body);
    }
    // The photograph was fetched once, whatever was asked of it.
    expect(origin.callsTo('/uploads/2026/11/Banner-01.JPG')).toBe(1);
  });

  it('sends the headers of an image: CORP cross-origin, nosniff, tags, a strong ETag, no document headers', async () => {
    const source = at('/uploads/2026/11/Banner-01.JPG');
    const res = await ask(svc.url, image(source, 640), { accept: WEBP_BROWSER });
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-tag')).toMatch(/^all, media:[0-9a-f]{12}$/);
    expect(res.headers.get('etag')).toMatch(/^"[\w-]{27}"$/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    for (const name of ['content-security-policy', 'x-frame-options', 'cross-origin-opener-policy', 'origin-agent-cluster']) {
      expect(res.headers.get(name), name).toBeNull();
    }
  });

  it('is immutable only when the version named is the original’s', async () => {
    const source = at('/uploads/2026/11/Banner-01.JPG');
    const current = await ask(svc.url, image(source, 384, versionOf(camera)), { accept: WEBP_BROWSER });
    expect(current.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const v of ['0', '000000000000']) {
      const other = await ask(svc.url, image(source, 384, v), { accept: WEBP_BROWSER });
      expect(other.status).toBe(200);
      expect(other.headers.get('cache-control')).toMatch(/^public, max-age=\d+, stale-while-revalidate=\d+/);
      expect(other.body.equals(current.body)).toBe(true);
    }
  });

  it('answers HEAD with the headers alone, and 304 to If-None-Match', async () => {
    const path = image(at('/uploads/2026/11/Banner-01.JPG'), 192);
    const full = await ask(svc.url, path, { accept: WEBP_BROWSER });
    const head = await ask(svc.url, path, { accept: WEBP_BROWSER }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers.get('content-length')).toBe(String(full.body.length));
    expect(head.headers.get('etag')).toBe(full.headers.get('etag'));
    const again = await ask(svc.url, path, { accept: WEBP_BROWSER, 'if-none-match': full.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.get('vary')).toBe('Accept');
  });

  it('never enlarges past the original', async () => {
    const res = await ask(svc.url, image(at('/uploads/alpha.png'), 2400), { accept: WEBP_BROWSER });
    expect((await sharp(res.body).metadata()).width).toBe(800);
  });

  it('applies EXIF orientation and drops the tag', async () => {
    const res = await ask(svc.url, image(at('/uploads/rotated.jpeg'), 640), { accept: '*/*' });
    const meta = await sharp(res.body).metadata();
    expect([meta.width, meta.height]).toEqual([640, 960]);
    expect(meta.orientation).toBeUndefined();
    await expectNoMetadata(res.body);
    // Stored landscape with a blue band on the left; shown portrait, the band on top.
    const top = await colourAt(res.body, { left: 200, top: 20, width: 200, height: 60 });
    expect(top.b).toBeGreaterThan(200);
    expect(top.r).toBeLessThan(60);
  });

  it('cuts a picture to a named shape: the right of a wide one, the middle of a tall one, upright, never enlarged', async () => {
    const ref = (path: string) => encodeRef(at(path));
    // A banner three times as wide as tall, blue on its right third: right-2x1 keeps its right two thirds.
    const wide = await ask(svc.url, mediaPath(ref('/uploads/banner-wide.png'), '0', 828, 'right-2x1'), { accept: WEBP_BROWSER });
    expect(wide.status).toBe(200);
    const meta = await sharp(wide.body).metadata();
    expect([meta.width, meta.height]).toEqual([828, 414]);
    const right = await colourAt(wide.body, { left: 600, top: 100, width: 200, height: 200 });
    const left = await colourAt(wide.body, { left: 20, top: 100, width: 200, height: 200 });
    expect(right.b).toBeGreaterThan(200);
    expect(left.g).toBeGreaterThan(200);
    // The camera's 4000 × 3000 photograph: its whole width, 4000 × 2000 of its middle, at 1080.
    const photo = await sharp(
      (await ask(svc.url, mediaPath(ref('/uploads/crowd-0.jpg'), '0', 1080, 'right-2x1'), { accept: '*/*' })).body,
    ).metadata();
    expect([photo.width, photo.height]).toEqual([1080, 540]);
    // Turned upright first: the portrait shown 800 × 1200 gives 800 × 400 of its middle.
    const rotated = await ask(svc.url, mediaPath(ref('/uploads/rotated.jpeg'), '0', 1080, 'right-2x1'), { accept: '*/*' });
    const upright = await sharp(rotated.body).metadata();
    expect([upright.width, upright.height]).toEqual([800, 400]);
    await expectNoMetadata(rotated.body);
  });

  it('converts Display P3 and CMYK to sRGB, and keeps no ICC profile', async () => {
    const p3 = await ask(svc.url, image(at('/uploads/p3.jpg'), 384), { accept: WEBP_BROWSER });
    await expectNoMetadata(p3.body);
    const colour = await colourAt(p3.body, { left: 100, top: 100, width: 100, height: 100 });
    expect(Math.abs(colour.r - P3_SRGB.r)).toBeLessThan(6);
    expect(Math.abs(colour.g - P3_SRGB.g)).toBeLessThan(6);
    expect(Math.abs(colour.b - P3_SRGB.b)).toBeLessThan(6);

    const cmyk = await ask(svc.url, image(at('/uploads/cmyk.jpg'), 384), { accept: '*/*' });
    await expectNoMetadata(cmyk.body);
    const meta = await sharp(cmyk.body).metadata();
    expect(meta.channels).toBe(3);
    const red = await colourAt(cmyk.body, { left: 100, top: 100, width: 100, height: 100 });
    expect(red.r).toBeGreaterThan(150);
    expect(red.g).toBeLessThan(90);
  });

  it('keeps transparency: PNG for a client that takes neither AVIF nor WebP, alpha in WebP and AVIF', async () => {
    const legacy = await ask(svc.url, image(at('/uploads/alpha.png'), 384), { accept: 'image/png,image/*;q=0.8' });
    expect(legacy.headers.get('content-type')).toBe('image/png');
    for (const [accept, body] of [
      ['', legacy.body],
      [WEBP_BROWSER, (await ask(svc.url, image(at('/uploads/alpha.png'), 384), { accept: WEBP_BROWSER })).body],
      [AVIF_BROWSER, (await ask(svc.url, image(at('/uploads/alpha.png'), 384), { accept: AVIF_BROWSER })).body],
    ] as const) {
      const { channels } = await sharp(body).stats();
      expect(channels[3]?.min, accept).toBe(0);
    }
  });

  it('sends the first frame of an animated GIF, still', async () => {
    const res = await ask(svc.url, image(at('/uploads/anim.gif'), 96), { accept: WEBP_BROWSER });
    const meta = await sharp(res.body, { animated: true }).metadata();
    expect(meta.pages ?? 1).toBe(1);
    expect([meta.width, meta.height]).toEqual([96, 48]);
    const colour = await colourAt(res.body, { left: 30, top: 10, width: 30, height: 20 });
    expect(colour.g).toBeGreaterThan(200);
    expect(colour.r).toBeLessThan(40);
  });

  it('rasterises a hostile SVG without running, reading or requesting anything', async () => {
    const res = await ask(svc.url, image(at('/uploads/hostile.svg'), 828), { accept: WEBP_BROWSER });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(res.body).metadata();
    // Drawn at the width asked (a vector has no resolution to enlarge past).
    expect([meta.width, meta.height]).toEqual([828, 414]);
    // The red PNG it points at on disk was not read: the picture is white where it would be.
    const left = await colourAt(res.body, { left: 20, top: 20, width: 300, height: 300 });
    expect(left.g).toBeGreaterThan(240);
    expect([...origin.calls.keys()].filter((p) => p.startsWith('/probe'))).toEqual([]);
  });

  it('refuses sources on other origins, data: and file: URLs, and credentials, before any request', async () => {
    const refused = [
      `${stranger.url}/x.jpg`,
      'data:image/png;base64,iVBORw0KGgo=',
      'file:///etc/passwd.png',
      `http://user:secret@${origin.url.slice('http://'.length)}/uploads/alpha.png`,
      'http://169.254.169.254/latest/meta-data/x.png',
      '//127.0.0.2/x.jpg',
    ];
    const before = origin.totalCalls();
    for (const source of refused) {
      const res = await ask(svc.url, image(source, 640));
      expect(res.status, source).toBe(403);
      expect(JSON.parse(res.body.toString()).error.code).toBe('forbidden');
    }
    expect(stranger.totalCalls()).toBe(0);
    expect(origin.totalCalls()).toBe(before);
  });

  it('resolves a path on the content API against it, and refuses one it does not have', async () => {
    const res = await ask(svc.url, image('/uploads/none.jpg', 640));
    // The embedded content API has no such file: asked, it says 404, which is passed on.
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body.toString()).error.code).toBe('not_found');
  });

  it('refuses junk addresses with 400 and creates nothing', async () => {
    const ref = encodeRef(at('/uploads/2026/11/Banner-01.JPG'));
    const bytesBefore = await metric(svc, 'media_cache_bytes{store="variants"}');
    const callsBefore = origin.totalCalls();
    const junk = [
      '/_media',
      '/_media/',
      `/_media/100/0/${ref}`,
      `/_media/1081/0/${ref}`,
      `/_media/0/0/${ref}`,
      `/_media/0640/0/${ref}`,
      `/_media/abc/0/${ref}`,
      `/_media/640/0/${ref}?w=1`,
      `/_media/640/0/${ref}?`,
      `/_media/640/00/${ref}`,
      `/_media/640/ABCDEF012345/${ref}`,
      `/_media/640/0/${ref}=`,
      `/_media/640/0/${ref}/extra`,
      `/_media/640/0/not*base64`,
      `/_media/file/0/${ref}`,
      `/_media/640/0/${encodeRef(at('/uploads/clip.mp4'))}`,
      `/_media/640/0/${encodeRef('not a url')}`,
      `/_media/left-1x1/640/0/${ref}`,
      `/_media/right-2x1/100/0/${ref}`,
      `/_media/right-2x1/1600/0/${ref}`,
      `/_media/right-2x1/file/0/${ref}`,
      `/_media/right-2x1/640/0/${ref}/x`,
    ];
    for (const path of junk) {
      const res = await ask(svc.url, path);
      expect(res.status, path).toBe(path.includes(encodeRef('not a url')) ? 403 : 400);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(JSON.parse(res.body.toString()).error.code, path).toMatch(/^(bad_request|forbidden)$/);
    }
    const post = await fetch(`${svc.url}${image(at('/uploads/alpha.png'), 640)}`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(origin.totalCalls()).toBe(callsBefore);
    expect(await metric(svc, 'media_cache_bytes{store="variants"}')).toBe(bytesBefore);
    expect(await metric(svc, 'media_requests_total{result="refused",reason="address"}')).toBeGreaterThanOrEqual(13);
  });

  it('refuses a decompression bomb from its header, and keeps serving', async () => {
    const res = await ask(svc.url, image(at('/uploads/bomb.png'), 640));
    expect(res.status).toBe(502);
    expect(JSON.parse(res.body.toString()).error.message).toMatch(/pixels/);
    // The refusal is kept: asked again, the origin is not.
    await ask(svc.url, image(at('/uploads/bomb.png'), 96));
    expect(origin.callsTo('/uploads/bomb.png')).toBe(1);
    expect(await metric(svc, 'media_origin_errors_total{kind="too_many_pixels"}')).toBe(1);
    expect((await ask(svc.url, image(at('/uploads/alpha.png'), 96))).status).toBe(200);
    expect(svc.logs.some((l) => l.kind === 'too_many_pixels' && l.source === at('/uploads/bomb.png'))).toBe(true);
  });

  it('refuses an original over MEDIA_MAX_BYTES, by its Content-Length or by the bytes read', async () => {
    for (const path of ['/uploads/huge.jpg', '/uploads/huge-chunked.jpg']) {
      const res = await ask(svc.url, image(at(path), 640));
      expect(res.status, path).toBe(502);
      expect(JSON.parse(res.body.toString()).error.message).toMatch(/over the limit/);
    }
    expect(await metric(svc, 'media_origin_errors_total{kind="too_large"}')).toBe(2);
  });

  it('refuses a source whose bytes are not an image, whatever its name and Content-Type say', async () => {
    const res = await ask(svc.url, image(at('/uploads/not-an-image.png'), 640));
    expect(res.status).toBe(502);
    expect(await metric(svc, 'media_origin_errors_total{kind="not_allowed_type"}')).toBe(1);
    // A JPEG cut in half: its header reads, its pixels do not.
    const truncated = await ask(svc.url, image(at('/uploads/truncated.jpg'), 640));
    expect(truncated.status).toBe(502);
    expect(svc.logs.some((l) => l.kind === 'undecodable' && l.source === at('/uploads/truncated.jpg'))).toBe(true);
  });

  it('makes one origin fetch and one transform for many concurrent requests of a new image', async () => {
    const path = image(at('/uploads/crowd-0.jpg'), 828);
    const transformedBefore = await metric(svc, 'media_requests_total{result="transformed",reason=""}');
    const answers = await Promise.all(Array.from({ length: 12 }, () => ask(svc.url, path, { accept: WEBP_BROWSER })));
    for (const res of answers) expect(res.status).toBe(200);
    expect(new Set(answers.map((r) => r.headers.get('etag'))).size).toBe(1);
    expect(origin.callsTo('/uploads/crowd-0.jpg')).toBe(1);
    expect(await metric(svc, 'media_requests_total{result="transformed",reason=""}')).toBe(transformedBefore + 1);
  });

  it('passes a video through with byte ranges (206, 416), HEAD and 304', async () => {
    const video = mp4();
    const path = filePath(encodeRef(at('/uploads/clip.mp4')), versionOf(video));
    const whole = await ask(svc.url, path);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(whole.body.equals(video)).toBe(true);

    const part = await ask(svc.url, path, { range: 'bytes=1000-1999' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${video.length}`);
    expect(part.body.equals(video.subarray(1000, 2000))).toBe(true);

    const tail = await ask(svc.url, path, { range: 'bytes=-500' });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(video.subarray(video.length - 500))).toBe(true);

    const past = await ask(svc.url, path, { range: `bytes=${video.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${video.length}`);

    const head = await ask(svc.url, path, {}, 'HEAD');
    expect(head.headers.get('content-length')).toBe(String(video.length));
    expect(head.body.length).toBe(0);
    const again = await ask(svc.url, path, { 'if-none-match': whole.headers.get('etag')! });
    expect(again.status).toBe(304);
    expect(origin.callsTo('/uploads/clip.mp4')).toBe(1);

    const captions = await ask(svc.url, filePath(encodeRef(at('/uploads/clip.vtt')), '0'));
    expect(captions.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
    expect(captions.body.equals(VTT)).toBe(true);
  });

  it('describes an original for pages: version, size after orientation, type and dominant colour', async () => {
    const described = await svc.service.media.describe(at('/uploads/rotated.jpeg'), { budgetMs: 5_000 });
    expect(described).toMatchObject({ width: 800, height: 1200, type: 'jpeg', opaque: true });
    expect(described!.v).toMatch(/^[0-9a-f]{12}$/);
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(described!.color.slice(i, i + 2), 16));
    expect(r).toBeGreaterThan(200);
    expect(g! + b!).toBeLessThan(80);
    // The variants asked for afterwards need no second fetch.
    await ask(svc.url, image(at('/uploads/rotated.jpeg'), 96, described!.v), { accept: AVIF_BROWSER });
    expect(origin.callsTo('/uploads/rotated.jpeg')).toBe(1);
    expect(await svc.service.media.describe(`${stranger.url}/x.jpg`, { budgetMs: 100 })).toBeUndefined();
    expect(stranger.totalCalls()).toBe(0);
  });

  it('describe() gives up at its budget, and the next call has what the fetch found', async () => {
    origin.files.set('/uploads/late.jpg', { body: await cameraJpeg(2000, 1500, 7) });
    expect(await svc.service.media.describe(at('/uploads/late.jpg'), { budgetMs: 0 })).toBeUndefined();
    await expect
      .poll(() => svc.service.media.describe(at('/uploads/late.jpg'), { budgetMs: 0 }), { timeout: 5_000, message: 'the description' })
      .toMatchObject({ width: 2000, height: 1500 });
    expect(origin.callsTo('/uploads/late.jpg')).toBe(1);
  });

  it('asks the origin again after a purge of the source’s tag, and serves what it has meanwhile', async () => {
    const source = at('/uploads/p3.jpg');
    const path = image(source, 384);
    const first = await ask(svc.url, path, { accept: WEBP_BROWSER });
    const calls = origin.callsTo('/uploads/p3.jpg');
    const purge = await fetch(`${svc.url}/admin/purge`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PURGE_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tags: [first.headers.get('cache-tag')!.split(', ')[1]] }),
    });
    expect(purge.status).toBe(200);
    const again = await ask(svc.url, path, { accept: WEBP_BROWSER });
    expect(again.body.equals(first.body)).toBe(true);
    // One conditional request: the origin said 304, and nothing was transformed again.
    expect(origin.callsTo('/uploads/p3.jpg')).toBe(calls + 1);
    expect(await metric(svc, 'media_origin_fetches_total{result="not_modified"}')).toBeGreaterThanOrEqual(1);
    expect(again.headers.get('x-cache')).toBe('HIT');
  });

  it('reports metrics: requests by result, transform time, origin fetches, cache bytes', async () => {
    const text = await (await fetch(`${svc.url}/metrics`)).text();
    for (const series of [
      'media_requests_total{result="transformed",reason=""}',
      'media_requests_total{result="memory",reason=""}',
      'media_requests_total{result="refused",reason="origin"}',
      'media_transform_duration_seconds_count{format="avif"}',
      'media_origin_fetches_total{result="ok"}',
      'media_cache_bytes{store="variants"}',
    ]) {
      expect(text, series).toContain(series);
    }
    expect(await metric(svc, 'media_cache_bytes{store="variants"}')).toBeGreaterThan(0);
  });
});

describe('media endpoint under load and failure', () => {
  let origin: MediaOrigin;
  let camera: Buffer;

  beforeAll(async () => {
    origin = await startMediaOrigin();
    camera = await cameraJpeg();
  });
  afterAll(() => origin.stop());

  it('serves the last good variant while the origin is down', async () => {
    origin.files.set('/down/photo.jpg', { body: camera });
    const svc = await startService({ MEDIA_ORIGINS: origin.url, MEDIA_FRESH_S: '1' });
    try {
      const path = image(`${origin.url}/down/photo.jpg`, 640);
      const first = await ask(svc.url, path, { accept: WEBP_BROWSER });
      expect(first.status).toBe(200);
      await origin.stop();
      // Once the original is no longer taken as current, the origin is asked, fails, and the last good copy stands in.
      const last = await vi.waitFor(
        async () => {
          const answer = await ask(svc.url, path, { accept: WEBP_BROWSER });
          expect(answer.headers.get('x-cache')).toBe('STALE');
          return answer;
        },
        { timeout: 5_000, message: 'a stale answer' },
      );
      expect(last.status).toBe(200);
      expect(last.body.equals(first.body)).toBe(true);
      expect(await metric(svc, 'media_requests_total{result="stale",reason=""}')).toBeGreaterThan(0);
    } finally {
      await svc.close();
      origin = await startMediaOrigin();
    }
  });

  it('answers 503 busy with Retry-After past MEDIA_TRANSFORMS and its queue, and keeps serving what it has', async () => {
    const svc = await startService({ MEDIA_ORIGINS: origin.url, MEDIA_TRANSFORMS: '1' });
    try {
      // Distinct originals: the same photograph with a comment segment that differs. The slots and
      // the queue are what is tested: a photograph smaller than a camera's keeps the admitted work short.
      const photo = await cameraJpeg(1600, 1200, 3);
      for (let i = 0; i < 30; i++) {
        const comment = Buffer.from(`\xff\xfe\x00\x10burst-${String(i).padStart(6, '0')}`, 'latin1');
        origin.files.set(`/burst/${i}.jpg`, { body: Buffer.concat([photo.subarray(0, 2), comment, photo.subarray(2)]) });
      }
      // Each original fetched and analysed first: analyses have a lane of their own (one at a time
      // here), which would otherwise pace the burst's arrival at the transforms' slot (on a busy
      // machine no queue ever filled).
      for (let i = 0; i < 30; i++) expect((await ask(svc.url, image(`${origin.url}/burst/${i}.jpg`, 96))).status).toBe(200);
      const answers = await Promise.all(
        Array.from({ length: 30 }, (_, i) => ask(svc.url, image(`${origin.url}/burst/${i}.jpg`, 384), { accept: AVIF_BROWSER })),
      );
      const busy = answers.filter((a) => a.status === 503);
      expect(busy.length).toBeGreaterThan(0);
      expect(answers.every((a) => a.status === 200 || a.status === 503)).toBe(true);
      for (const res of busy) {
        expect(res.headers.get('retry-after')).toBe('1');
        expect(JSON.parse(res.body.toString()).error.code).toBe('busy');
      }
      expect(await metric(svc, 'media_requests_total{result="refused",reason="busy"}')).toBe(busy.length);
      expect(svc.logs.filter((l) => l.msg === 'image transforms refused: all slots busy (once per burst)').length).toBe(1);
      // Pages still render beside it.
      expect((await fetch(`${svc.url}/`)).status).toBe(200);
    } finally {
      await svc.close();
    }
  });

  it('fetches at most eight new originals at once, and refuses a burst past its queue before fetching it', async () => {
    const svc = await startService({ MEDIA_ORIGINS: origin.url, MEDIA_TRANSFORMS: '1' });
    try {
      const burst = 300;
      (await plainJpegs(burst)).forEach((body, i) => origin.files.set(`/many/${i}.jpg`, { body }));
      const before = origin.totalCalls();
      const answers = await Promise.all(
        Array.from({ length: burst }, (_, i) => ask(svc.url, image(`${origin.url}/many/${i}.jpg`, 96), { accept: AVIF_BROWSER })),
      );
      expect(answers.every((a) => a.status === 200 || a.status === 503)).toBe(true);
      // Eight in hand, the next waiting without bytes, the rest refused without a call.
      const calls = origin.totalCalls() - before;
      expect(origin.peakInFlight()).toBeLessThanOrEqual(8);
      expect(calls).toBeLessThan(burst);
      expect(answers.filter((a) => a.status === 503).length).toBeGreaterThanOrEqual(burst - calls);
      expect(svc.logs.filter((l) => l.msg === 'new originals refused: too many being fetched (once per burst)').length).toBe(1);
    } finally {
      await svc.close();
    }
  });

  it('spends the client’s miss budget only on fetches of originals nothing holds', async () => {
    origin.files.set('/budget/a.jpg', { body: camera });
    for (let i = 0; i < 4; i++) origin.files.set(`/budget/new-${i}.png`, { body: await transparentPng() });
    const svc = await startService({ MEDIA_ORIGINS: origin.url, RATE_LIMIT_MISSES: '3', RATE_LIMIT_WINDOW_S: '60' });
    try {
      const cached = image(`${origin.url}/budget/a.jpg`, 96);
      expect((await ask(svc.url, cached)).status).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await ask(svc.url, image(`${origin.url}/budget/new-${i}.png`, 96))).status);
      expect(statuses).toEqual([200, 200, 429, 429]);
      expect(origin.callsTo('/budget/new-2.png')).toBe(0);
      // What is cached is never refused, and costs nothing.
      for (let i = 0; i < 5; i++) expect((await ask(svc.url, cached)).status).toBe(200);
    } finally {
      await svc.close();
    }
  });
});

describe('media settings', () => {
  it('validates MEDIA_ORIGINS as http(s) origins', () => {
    expect(loadConfig({ MEDIA_ORIGINS: 'https://media.cms.example.cn, http://127.0.0.1:9000' }).MEDIA_ORIGINS).toEqual([
      'https://media.cms.example.cn',
      'http://127.0.0.1:9000',
    ]);
    for (const bad of ['ftp://x.example', 'https://x.example/uploads', 'https://user@x.example', 'not a url']) {
      expect(() => loadConfig({ MEDIA_ORIGINS: bad }), bad).toThrow(/MEDIA_ORIGINS/);
    }
    expect(() => loadConfig({ MEDIA_TRANSFORMS: '0' })).toThrow(/MEDIA_TRANSFORMS/);
  });
});
