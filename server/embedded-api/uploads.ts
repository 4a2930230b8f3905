/**
 * The embedded content API's uploads, served from its own origin as a CMS serves its editors'
 * files (docs/product/demo-content.md): `/uploads/<folder>/<Name>.<ext>`, named as editors name
 * them (any letter case). Icons, the logo and the QR code are SVG files as they are; a raster name
 * (`Eye-Exam.JPG`, `Trophy.png`) is drawn from the folder's illustration of the same name at
 * camera size, with a camera's grain and EXIF (a camera, a date, on the hospitals' photos the GPS
 * position, one stored on its side with Orientation 6), so that the site meets what a real CMS
 * sends: megabytes that must never reach a phone as they are. Drawn once, on first request, one
 * at a time, into a directory shared by every process on the machine (in memory where none can be
 * written); read from disk per request. Two processes may draw the same photo at once (the grain
 * is random): the first drawing written whole wins, and both then serve its bytes, so that an
 * answer's size and ETag always describe the bytes it sends (docs/decisions/033).
 */
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { link, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { isFresh } from '../http/representation.js';
import { byteRange } from '../media/media-response.js';

/** Where the files are: beside this module in the source, and beside the server's chunks when built. */
const ROOT = fileURLToPath(new URL('./uploads/', import.meta.url));
/**
 * Drawn originals, shared by every process (tests, workers) on the machine; a container of the
 * image given this directory's drawings at the same place serves them rather than drawing its own.
 */
export const DRAWINGS_DIR = join(tmpdir(), 'mingtong-demo-uploads');
/** Bumped when the drawing below changes, so that no stale drawing is reused. */
const DRAWING = 'v4';

const TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.vtt': 'text/vtt; charset=utf-8',
};
const RASTER = new Set(['.jpg', '.jpeg', '.png']);
/** A path as a CMS names its uploads: folders and a file name, no dot segments, nothing encoded but spaces. */
const UPLOAD_PATH = /^\/uploads\/((?:[a-z0-9-]+\/)+)([A-Za-z0-9][A-Za-z0-9 _-]*)(\.[A-Za-z0-9]+)$/;

interface Upload {
  /** The file served: in the source tree, or a drawing in DRAWINGS_DIR. */
  file: string | undefined;
  /** The drawing itself, where DRAWINGS_DIR could not be written (a read-only file system). */
  body: Buffer | undefined;
  size: number;
  type: string;
  etag: string;
  lastModified: string;
}

const EXIF_CAMERA = {
  IFD0: { Make: 'Canon', Model: 'EOS R6', Software: '明瞳眼科 CMS' },
  IFD2: { DateTimeOriginal: '2026:11:02 09:30:00' },
};
/** Where each hospital's photo was taken (WGS 84, degrees/minutes as EXIF rationals). */
const GPS: Record<string, { lat: string; latRef: 'N' | 'S'; lon: string; lonRef: 'E' | 'W' }> = {
  shanghai: { lat: '31/1 13/1 0/1', latRef: 'N', lon: '121/1 28/1 0/1', lonRef: 'E' },
  beijing: { lat: '39/1 54/1 0/1', latRef: 'N', lon: '116/1 24/1 0/1', lonRef: 'E' },
  guangzhou: { lat: '23/1 7/1 0/1', latRef: 'N', lon: '113/1 15/1 0/1', lonRef: 'E' },
  chengdu: { lat: '30/1 39/1 0/1', latRef: 'N', lon: '104/1 4/1 0/1', lonRef: 'E' },
  hangzhou: { lat: '30/1 16/1 0/1', latRef: 'N', lon: '120/1 9/1 0/1', lonRef: 'E' },
  wuhan: { lat: '30/1 35/1 0/1', latRef: 'N', lon: '114/1 18/1 0/1', lonRef: 'E' },
};
/** The one photo stored on its side, as a phone held upright stores it. */
const SIDEWAYS = 'covers/eye-exam';

const drawn = new Map<string, Promise<Upload | undefined>>();
let drawing: Promise<unknown> = Promise.resolve();

/** Answers a request for an upload; false when the request is not for `/uploads/`. */
export function handleUpload(req: IncomingMessage, res: ServerResponse): boolean {
  const target = (req.url ?? '/').split('?')[0]!;
  if (!target.startsWith('/uploads/')) return false;
  answer(req, res, target).catch((error: unknown) => {
    // A file that vanished or a drawing that failed: a CMS's 500, which the media endpoint handles.
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    else res.destroy();
  });
  return true;
}

async function answer(req: IncomingMessage, res: ServerResponse, target: string): Promise<void> {
  let path: string;
  try {
    path = decodeURIComponent(target);
  } catch {
    res.writeHead(400).end();
    return;
  }
  const upload = req.method === 'GET' || req.method === 'HEAD' ? await find(path) : undefined;
  if (!upload) {
    res.writeHead(req.method === 'GET' || req.method === 'HEAD' ? 404 : 405, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  const headers = {
    etag: upload.etag,
    'last-modified': upload.lastModified,
    'cache-control': 'public, max-age=300',
    'accept-ranges': 'bytes',
  };
  if (isFresh(req, headers)) {
    res.writeHead(304, headers).end();
    return;
  }
  const { size } = upload;
  const range = byteRange(req.headers.range, size);
  if (range === 'unsatisfiable') {
    res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
    return;
  }
  const body = req.method === 'HEAD' ? undefined : (upload.body ?? (await readFile(upload.file!)));
  if (range) {
    const { start, end } = range;
    res.writeHead(206, {
      ...headers,
      'content-type': upload.type,
      'content-length': end - start + 1,
      'content-range': `bytes ${start}-${end}/${size}`,
    });
    res.end(body?.subarray(start, end + 1));
    return;
  }
  res.writeHead(200, { ...headers, 'content-type': upload.type, 'content-length': size });
  res.end(body);
}

/**
 * The upload a path names, drawing it the first time; undefined when there is none. A drawing
 * that fails is answered 500 with its reason (answer's caller), and tried again next time.
 */
function find(path: string): Promise<Upload | undefined> {
  let found = drawn.get(path);
  if (!found) {
    found = load(path);
    drawn.set(path, found);
    found.catch(() => drawn.delete(path));
  }
  return found;
}

/**
 * The file behind an upload's path: the file of that name, or, for a photo, the illustration of
 * the same name it is drawn from (`drawn`); undefined when there is none.
 */
export function backingFile(path: string): { file: string; drawn: boolean } | undefined {
  const parts = UPLOAD_PATH.exec(path);
  if (!parts) return undefined;
  const [, folder, name, ext] = parts as unknown as [string, string, string, string];
  if (!TYPES[ext.toLowerCase()]) return undefined;
  const file = join(ROOT, folder, name + ext);
  if (existsSync(file)) return { file, drawn: false };
  const illustration = join(ROOT, folder, `${name.toLowerCase()}.svg`);
  return RASTER.has(ext.toLowerCase()) && existsSync(illustration) ? { file: illustration, drawn: true } : undefined;
}

async function load(path: string): Promise<Upload | undefined> {
  const backing = backingFile(path);
  if (!backing) return undefined;
  const extension = path.slice(path.lastIndexOf('.')).toLowerCase();
  const type = TYPES[extension]!;
  const source = await readFile(backing.file);
  const modified = (await stat(backing.file)).mtime;
  if (!backing.drawn) return upload(backing.file, source, type, modified);
  const key = path.slice('/uploads/'.length, path.lastIndexOf('.')).toLowerCase();
  const hash = createHash('sha256').update(DRAWING).update(key).update(extension).update(source).digest('hex').slice(0, 20);
  const drawing = await cached(hash, extension, () => photograph(source, key, extension));
  return upload(drawing.file, drawing.body, type, modified);
}

/** Draws the photos among `paths` ahead of their first request (the tests' setup draws the content's). */
export async function drawAll(paths: readonly string[]): Promise<void> {
  for (const path of paths) if (backingFile(path)?.drawn) await find(path);
}

function upload(file: string | undefined, body: Buffer, type: string, modified: Date): Upload {
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { file, body: file ? undefined : body, size: body.length, type, etag, lastModified: modified.toUTCString() };
}

/**
 * A drawing from the shared directory, or drawn now (one at a time) and published there: written
 * whole under a name of its own, then linked to its name, which fails if another process's drawing
 * got there first. A name, once there, never changes: the bytes read from it are the bytes sent.
 */
async function cached(hash: string, extension: string, draw: () => Promise<Buffer>): Promise<{ file: string | undefined; body: Buffer }> {
  const file = join(DRAWINGS_DIR, hash + extension);
  const kept = await readFile(file).catch(() => undefined);
  if (kept) return { file, body: kept };
  const next = drawing.then(draw);
  drawing = next.catch(() => undefined);
  const body = await next;
  // A directory that cannot be made or written (a hardened container's read-only root): kept in memory instead.
  const inMemory = { file: undefined, body };
  try {
    await mkdir(DRAWINGS_DIR, { recursive: true });
  } catch {
    return inMemory;
  }
  const temporary = `${file}.${randomUUID()}.tmp`;
  try {
    await writeFile(temporary, body);
    await link(temporary, file);
    return { file, body };
  } catch (error) {
    // Another process's drawing was published first: it is the one everyone serves.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return { file, body: await readFile(file) };
    return inMemory;
  } finally {
    await rm(temporary, { force: true });
  }
}

/** The illustration as a camera would have taken it: camera size, grain, EXIF. */
async function photograph(svg: Buffer, key: string, extension: string): Promise<Buffer> {
  const [folder, name] = key.split('/') as [string, string];
  // Portraits 1600 px tall, awards 1600 px wide, banners (3 : 1) 3600 px wide, everything else 2400 px wide.
  const size =
    folder === 'experts' ? { height: 1600 } : folder === 'awards' ? { width: 1600 } : { width: folder === 'banners' ? 3600 : 2400 };
  const picture = await sharp(svg, { density: 300 })
    .resize(size)
    .flatten({ background: '#ffffff' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height } = picture.info;
  // A PNG is a graphic an editor exported: no grain. A photo has a camera's, at full resolution.
  if (extension === '.png') return sharp(picture.data, { raw: picture.info }).png({ compressionLevel: 9 }).toBuffer();
  const grain = await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 48 } },
  })
    .raw()
    .toBuffer();
  let pixels = await sharp(picture.data, { raw: picture.info })
    .composite([{ input: grain, raw: { width, height, channels: 3 }, blend: 'soft-light' }])
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (key === SIDEWAYS) pixels = await sharp(pixels.data, { raw: pixels.info }).rotate(270).raw().toBuffer({ resolveWithObject: true });
  const image = sharp(pixels.data, { raw: pixels.info });
  const gps = folder === 'hospitals' ? GPS[name] : undefined;
  const exif = {
    ...EXIF_CAMERA,
    ...(gps ? { IFD3: { GPSLatitudeRef: gps.latRef, GPSLatitude: gps.lat, GPSLongitudeRef: gps.lonRef, GPSLongitude: gps.lon } } : {}),
  };
  const jpeg = image.jpeg({ quality: 97 });
  return (key === SIDEWAYS ? jpeg.withMetadata({ orientation: 6 }).withExifMerge(exif) : jpeg.withExif(exif)).toBuffer();
}
