/**
 * Test originals for the media endpoint, made with sharp when a test starts (nothing large is
 * committed): camera-sized photographs with EXIF (GPS included) and XMP, one with Orientation 6,
 * a PNG with transparency, CMYK and Display-P3 JPEGs, an animated GIF, a hostile SVG, a
 * decompression bomb, and a video and captions file.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

/** The colour of the P3 test image, as sRGB: what the endpoint must send. */
export const P3_SRGB = { r: 200, g: 100, b: 50 };

/** The first 12 hex digits of the SHA-256 of an original: its version. */
export const versionOf = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 12);

const XMP = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>摄影师</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>`;

const EXIF = {
  IFD0: { Make: 'Canon', Model: 'EOS R6', Copyright: '明瞳眼科' },
  IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '31/1 14/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '121/1 28/1 0/1' },
};

/**
 * A photograph-like JPEG at quality 90 with EXIF (GPS included) and XMP: coloured shapes under a
 * sky, with a fine texture so that it compresses like a photograph (about 2.4 MB at 4000 × 3000).
 * `seed` changes the scene, and so the bytes.
 */
export async function cameraJpeg(width = 4000, height = 3000, seed = 1): Promise<Buffer> {
  let state = seed;
  const random = () => (state = (state * 16_807) % 2_147_483_647) / 2_147_483_647;
  let shapes = '';
  for (let i = 0; i < 60; i++) {
    const [x, y, r] = [random() * width, random() * height, (50 + random() * 400) * (width / 4000)];
    const colour = `hsl(${Math.floor(random() * 360)},${30 + Math.floor(random() * 40)}%,${30 + Math.floor(random() * 40)}%)`;
    shapes +=
      i % 2
        ? `<circle cx="${x}" cy="${y}" r="${r}" fill="${colour}" opacity="0.7"/>`
        : `<rect x="${x}" y="${y}" width="${r * 1.5}" height="${r}" fill="${colour}" opacity="0.7" transform="rotate(${random() * 40 - 20} ${x} ${y})"/>`;
  }
  const scene = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#8ec5ea"/><stop offset="0.6" stop-color="#e8d8b0"/><stop offset="1" stop-color="#5a6b3a"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#s)"/>${shapes}<text x="${width * 0.075}" y="${height * 0.9}" font-size="${width * 0.055}" fill="#fff">明瞳眼科 Mingtong</text></svg>`,
  );
  const [w, h] = [Math.round(width / 4), Math.round(height / 4)];
  const grain = await sharp({
    create: { width: w, height: h, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 30 } },
  })
    .raw()
    .toBuffer();
  const texture = await sharp(grain, { raw: { width: w, height: h, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  return sharp(scene)
    .composite([{ input: texture, raw: { width, height, channels: 3 }, blend: 'soft-light' }])
    .jpeg({ quality: 90 })
    .withExif(EXIF)
    .withXmp(XMP)
    .toBuffer();
}

/** A JPEG whose pixels are stored landscape (a blue band on the left) with EXIF Orientation 6: shown portrait, the band on top. */
export async function rotatedJpeg(): Promise<Buffer> {
  const stored = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#ff0000' } })
    .composite([{ input: { create: { width: 200, height: 800, channels: 3, background: '#0000ff' } }, left: 0, top: 0 }])
    .jpeg({ quality: 90 })
    .toBuffer();
  return sharp(stored).withMetadata({ orientation: 6 }).withExifMerge(EXIF).jpeg({ quality: 90 }).toBuffer();
}

/** A PNG whose right half is transparent. */
export function transparentPng(): Promise<Buffer> {
  return sharp({ create: { width: 800, height: 600, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([
      { input: { create: { width: 400, height: 600, channels: 4, background: { r: 0, g: 128, b: 255, alpha: 1 } } }, left: 0, top: 0 },
    ])
    .png()
    .toBuffer();
}

/** A JPEG in Display P3 (with its ICC profile) whose colour is P3_SRGB in sRGB. */
export function displayP3Jpeg(): Promise<Buffer> {
  return sharp({ create: { width: 800, height: 600, channels: 3, background: P3_SRGB } })
    .withIccProfile('p3')
    .jpeg({ quality: 95 })
    .toBuffer();
}

/** A CMYK JPEG (as print workflows export them). */
export function cmykJpeg(): Promise<Buffer> {
  return sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 200, g: 30, b: 40 } } })
    .toColourspace('cmyk')
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** An animated GIF of two frames: green, then red. */
export async function animatedGif(): Promise<Buffer> {
  const frames = await sharp({ create: { width: 200, height: 200, channels: 4, background: '#00ff00' } })
    .composite([{ input: { create: { width: 200, height: 100, channels: 4, background: '#ff0000' } }, left: 0, top: 100 }])
    .raw()
    .toBuffer();
  return sharp(frames, { raw: { width: 200, height: 200, channels: 4, pageHeight: 100 }, animated: true })
    .gif({ delay: [200, 200], loop: 0 })
    .toBuffer();
}

/**
 * An SVG that tries everything: a script, an image read from a file (a red PNG at `redPngPath`,
 * and /etc/passwd), images and styles from a loopback URL (`probeUrl`, which counts requests).
 */
export function hostileSvg(redPngPath: string, probeUrl: string): Buffer {
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="200" viewBox="0 0 400 200">
  <script>fetch('${probeUrl}/script')</script>
  <style>@import url(${probeUrl}/style.css);</style>
  <rect width="400" height="200" fill="#ffffff"/>
  <image href="file://${redPngPath}" x="0" y="0" width="200" height="200"/>
  <image xlink:href="${probeUrl}/image.png" x="200" y="0" width="200" height="200"/>
  <image href="file:///etc/passwd" x="0" y="0" width="10" height="10"/>
  <use href="${probeUrl}/sprite.svg#icon"/>
  <filter id="f"><feImage href="${probeUrl}/filter.png"/></filter>
  <rect width="10" height="10" filter="url(#f)"/>
</svg>`);
}

/** `count` small JPEGs of one flat colour each, every one different (up to 65,536). */
export function plainJpegs(count: number, width = 320, height = 240): Promise<Buffer[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      sharp({ create: { width, height, channels: 3, background: { r: i % 256, g: i >> 8, b: 90 } } })
        .jpeg()
        .toBuffer(),
    ),
  );
}

/** A small red PNG, for the hostile SVG to try to read. */
export const redPng = () =>
  sharp({ create: { width: 50, height: 50, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function crc32(data: Buffer): number {
  let crc = ~0;
  for (const byte of data) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/**
 * A decompression bomb: a valid PNG of about 100 KB whose header declares 30,000 × 30,000
 * pixels (sharp will not write one that large, so the chunks are written here).
 */
export function bombPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(30_000, 0);
  header.writeUInt32BE(30_000, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  // 1,100 rows of black (a filter byte and 90,000 zero bytes each) deflate to about 100 KB.
  const rows = deflateSync(Buffer.alloc(1_100 * 90_001), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', rows),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An MP4 as the endpoint sees one: an ftyp box, then a body of known bytes (it is passed through, never decoded). */
export function mp4(size = 300_000): Buffer {
  const ftyp = Buffer.concat([
    Buffer.from([0, 0, 0, 24]),
    Buffer.from('ftypisom', 'latin1'),
    Buffer.from([0, 0, 2, 0]),
    Buffer.from('isomiso2', 'latin1'),
  ]);
  const mdat = Buffer.alloc(size - ftyp.length);
  for (let i = 0; i < mdat.length; i++) mdat[i] = (i * 31 + 7) & 0xff;
  mdat.writeUInt32BE(mdat.length, 0);
  mdat.write('mdat', 4, 'latin1');
  return Buffer.concat([ftyp, mdat]);
}

export const VTT = Buffer.from('WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n欢迎来到明瞳眼科\n');
