/**
 * Two content API processes on one machine share one directory of drawn photos
 * (server/embedded-api/uploads.ts). Started cold at once, with an empty directory of their own,
 * both draw the same photos at the same time (each with its own random grain): the first drawing
 * written whole wins, and every answer from either process says the size and ETag of the very
 * bytes it sends, which decode (docs/decisions/033). A process that cannot write that directory (a
 * container's read-only root) keeps its drawings in memory and serves each the same way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoContent } from '../server/embedded-api/demo-content/index.js';
import { backingFile, DRAWINGS_DIR } from '../server/embedded-api/uploads.js';
import { uploadPaths } from './support/draw-uploads.js';

let dir: string;
const children: ChildProcess[] = [];
let urls: string[] = [];

/** `node dist/server/demo-content-api.js` on a free loopback port, drawing into `tmp`; its URL. */
function contentApi(tmp: string): Promise<string> {
  const child = spawn(process.execPath, ['dist/server/demo-content-api.js'], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', TMPDIR: tmp, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const url = /"url":"(http:[^"]+)"/.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.once('exit', (code) => reject(new Error(`content API exited ${code}: ${out}`)));
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(process.env.TMPDIR ?? '/tmp', 'uploads-race-'));
  urls = await Promise.all([contentApi(dir), contentApi(dir)]);
});
afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Photos drawn from an illustration, the first of each kind (a portrait, which broke before, among them), in one order for both. */
const drawn = [...new Set(uploadPaths(demoContent))].filter((p) => backingFile(p)?.drawn);
const photos = ['banners', 'experts', 'hospitals', 'awards', 'covers'].flatMap((kind) =>
  drawn.filter((p) => p.includes(`/${kind}/`)).slice(0, 1),
);

async function check(url: string, path: string) {
  const res = await fetch(url + path);
  expect(res.status, path).toBe(200);
  const body = Buffer.from(await res.arrayBuffer());
  expect(Number(res.headers.get('content-length')), path).toBe(body.length);
  expect(res.headers.get('etag'), path).toBe(`"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`);
  const { info } = await sharp(body).raw().toBuffer({ resolveWithObject: true });
  expect(info.width * info.height, path).toBeGreaterThan(1_000_000);
  return res.headers.get('etag');
}

describe('two content API processes started cold at once', () => {
  it('answer every photo with its own size and ETag, bytes that decode, and the same drawing', { timeout: 240_000 }, async () => {
    expect(photos).toHaveLength(5);
    // Both asked for every photo at once: each draws them in the same order, racing the other.
    const first = await Promise.all(urls.map((url) => Promise.all(photos.map((path) => check(url, path)))));
    // Once drawn, from the directory: both serve one drawing of each.
    const again = await Promise.all(urls.map((url) => Promise.all(photos.map((path) => check(url, path)))));
    expect(again[0]).toEqual(again[1]);
    expect(again[0]).toEqual(first[0]);
    // Nothing half-written is left behind.
    expect(readdirSync(join(dir, basename(DRAWINGS_DIR))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('a content API that cannot write its drawings directory', () => {
  it('draws each photo once and keeps it in memory: the same bytes, size and ETag each time', { timeout: 120_000 }, async () => {
    // Its temporary directory is a file: the drawings directory cannot be made in it.
    const notADirectory = join(dir, 'not-a-directory');
    writeFileSync(notADirectory, '');
    const url = await contentApi(notADirectory);
    const path = photos[0]!;
    const first = await check(url, path);
    expect(await check(url, path)).toBe(first);
  });
});
