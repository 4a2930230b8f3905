/**
 * The media cache on disk (MEDIA_CACHE_DIR), so that a restart does not fetch and transform
 * everything again. Each entry is a file written atomically (a temporary file renamed into
 * place) in an envelope that carries its length and SHA-256: a partial or corrupt file is
 * ignored, as if absent, and rewritten by whoever makes the entry again. The directory is
 * bounded: past MEDIA_CACHE_DIR_MAX_BYTES the least recently used files are deleted.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Logger } from '../observability/logger.js';

const MAGIC = Buffer.from('MTM1');
const HEADER = MAGIC.length + 4 + 32;
/** A full directory is pruned to this share of its bound, so that pruning is not done on every write. */
const PRUNE_TO = 0.9;
/**
 * A temporary file older than this was left by a crash; a younger one may be another process's
 * write under way (every worker, or instances sharing a volume, index the directory as they start).
 */
const CRASH_LEFTOVER_MS = 10 * 60_000;

export class DiskStore {
  /** Every file of the store with its size, least recently used first (a Map keeps insertion order). */
  readonly #files = new Map<string, number>();
  #bytes = 0;
  readonly #ready: Promise<void>;

  constructor(
    private readonly root: string,
    private readonly maxBytes: number,
    private readonly log: Logger,
  ) {
    this.#ready = this.#index().catch((error: unknown) => {
      log.error({ err: String(error), dir: root }, 'media cache directory cannot be read; it is used as it fills');
    });
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** What is stored under a name (a path relative to the root), or undefined (absent, partial or corrupt). */
  async read(name: string): Promise<Buffer | undefined> {
    await this.#ready;
    const file = join(this.root, name);
    let data: Buffer;
    try {
      data = await readFile(file);
    } catch {
      return undefined;
    }
    const body = data.subarray(HEADER);
    const intact =
      data.length >= HEADER &&
      data.subarray(0, MAGIC.length).equals(MAGIC) &&
      data.readUInt32BE(MAGIC.length) === body.length &&
      createHash('sha256')
        .update(body)
        .digest()
        .equals(data.subarray(MAGIC.length + 4, HEADER));
    if (!intact) {
      this.log.warn({ file }, 'media cache file is partial or corrupt: ignored, and made again');
      return undefined;
    }
    this.#touch(name, data.length);
    return body;
  }

  /** Stores a body under a name, atomically; a failure is logged and leaves the cache without it. */
  async write(name: string, body: Buffer): Promise<void> {
    await this.#ready;
    const file = join(this.root, name);
    const header = Buffer.alloc(HEADER);
    MAGIC.copy(header);
    header.writeUInt32BE(body.length, MAGIC.length);
    createHash('sha256')
      .update(body)
      .digest()
      .copy(header, MAGIC.length + 4);
    const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await mkdir(dirname(file), { recursive: true });
      const handle = await open(temporary, 'w');
      try {
        await handle.writev([header, body]);
      } finally {
        await handle.close();
      }
      await rename(temporary, file);
      this.#touch(name, HEADER + body.length);
      await this.#prune();
    } catch (error) {
      await rm(temporary, { force: true });
      this.log.error({ err: String(error), file }, 'media cache file could not be written');
    }
  }

  #touch(name: string, size: number): void {
    const before = this.#files.get(name);
    if (before !== undefined) {
      this.#files.delete(name);
      this.#bytes -= before;
    }
    this.#files.set(name, size);
    this.#bytes += size;
  }

  async #prune(): Promise<void> {
    if (this.#bytes <= this.maxBytes) return;
    for (const [name, size] of this.#files) {
      if (this.#bytes <= this.maxBytes * PRUNE_TO) break;
      this.#files.delete(name);
      this.#bytes -= size;
      await rm(join(this.root, name), { force: true });
    }
  }

  /**
   * Reads what the directory holds (oldest first, by modification time) and drops temporary files
   * left by a crash.
   */
  async #index(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    const found: { name: string; size: number; mtime: number }[] = [];
    for (const entry of await readdir(this.root, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const path = join(entry.parentPath, entry.name);
      const info = await stat(path).catch(() => undefined);
      if (entry.name.endsWith('.tmp')) {
        if (info && Date.now() - info.mtimeMs > CRASH_LEFTOVER_MS) await rm(path, { force: true });
        continue;
      }
      if (info) found.push({ name: path.slice(this.root.length + 1), size: info.size, mtime: info.mtimeMs });
    }
    found.sort((a, b) => a.mtime - b.mtime);
    for (const f of found) if (!this.#files.has(f.name)) this.#touch(f.name, f.size);
    await this.#prune();
  }
}
