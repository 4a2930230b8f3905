/**
 * Shedding before dying, on a real process (`node dist/server/index.js`): given a limit below what it
 * already holds, its caches are halved at each reading and a new picture transform waits for room,
 * then is refused (503 busy) rather than run; pages are still served. Under a limit it is far
 * from, the same picture is made and nothing is shed. The budget's parts and the limit are on
 * /metrics and /status.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startBuiltServer, type BuiltServer } from './support/built-server.js';

const MIB = 1024 * 1024;
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The built service on the demo content, with a media cache directory of its own (every variant is made anew) and `limit`. */
function start(limit: number): Promise<BuiltServer> {
  const dir = mkdtempSync(join(tmpdir(), 'shedding-media-'));
  dirs.push(dir);
  return startBuiltServer({
    MEMORY_LIMIT_BYTES: String(limit),
    MEDIA_CACHE_DIR: dir,
    MEDIA_MAKE_AHEAD: 'off',
    SEARCH_INDEX: 'first-use',
    WORKERS: '1',
  });
}

/** The value of one series in the service's /metrics (0 when absent). */
async function series(server: BuiltServer, name: string): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1));
}

/** The home page, and the first picture address it names (a variant no cache holds yet). */
async function homeAndPicture(server: BuiltServer): Promise<{ status: number; picture: string }> {
  const home = await fetch(`${server.url}/`, { headers: { accept: 'text/html' } });
  const picture = /\/_media\/[A-Za-z0-9_/=-]+/.exec(await home.text())?.[0];
  if (!picture) throw new Error('the home page names no picture');
  return { status: home.status, picture };
}

describe('near the memory limit (a real process, MEMORY_LIMIT_BYTES)', () => {
  it('halves its caches at each reading and makes a new picture wait for room, then refuses it; pages are still served', async () => {
    // 128 MiB: the process holds more than its line (85 %) from the start.
    const server = await start(128 * MIB);
    try {
      const { status, picture } = await homeAndPicture(server);
      expect(status).toBe(200);
      await expect.poll(() => series(server, 'memory_shed_total'), { timeout: 15_000 }).toBeGreaterThan(0);
      expect(await series(server, 'memory_pressure')).toBe(1);
      expect(await series(server, 'memory_limit_bytes{source="MEMORY_LIMIT_BYTES"}')).toBe(128 * MIB);
      const said = server
        .stdout()
        .split('\n')
        .filter((l) => l.includes('near the memory limit'))
        .map((l) => JSON.parse(l) as { rss: number; line: number; before: number; after: number });
      expect(said.length).toBe(1);
      expect(said[0]!.rss).toBeGreaterThanOrEqual(said[0]!.line);
      expect(said[0]!.after).toBeLessThanOrEqual(said[0]!.before / 2);

      const refused = await fetch(`${server.url}${picture}`, { headers: { accept: 'image/avif,image/webp,*/*' } });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('2');
      expect(((await refused.json()) as { error: { code: string; message: string } }).error).toEqual({
        code: 'busy',
        message: 'the service is near its memory limit; try again shortly',
      });
      expect(await series(server, 'load_shed_total{reason="memory"}')).toBe(1);
      expect((await fetch(`${server.url}/jtjj/qywh`, { headers: { accept: 'text/html' } })).status).toBe(200);
      expect((await fetch(`${server.url}/api/banner`)).status).toBe(200);

      const status_ = await (await fetch(`${server.url}/status`)).text();
      expect(status_).toContain('<h2>Memory budget: what each part holds against its share</h2>');
      expect(status_).toMatch(/<td>media<\/td><td>[\d.]+ [KM]iB<\/td><td>16\.0 MiB<\/td>/);
      expect(status_).toMatch(/resident [\d.]+ MiB of 128\.0 MiB \(MEMORY_LIMIT_BYTES\)/);
    } finally {
      server.kill();
    }
  });

  it('far under its limit, makes the same picture and sheds nothing', async () => {
    const server = await start(4096 * MIB);
    try {
      const { picture } = await homeAndPicture(server);
      const made = await fetch(`${server.url}${picture}`, { headers: { accept: 'image/avif,image/webp,*/*' } });
      expect(made.status).toBe(200);
      expect(made.headers.get('x-cache')).toBe('MISS');
      expect(await series(server, 'memory_part_bytes{part="media"}')).toBeGreaterThan(0);
      expect(await series(server, 'memory_shed_total')).toBe(0);
      expect(await series(server, 'memory_pressure')).toBe(0);
      expect(await series(server, 'load_shed_total{reason="memory"}')).toBe(0);
    } finally {
      server.kill();
    }
  });
});
