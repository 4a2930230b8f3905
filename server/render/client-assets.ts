/**
 * What the browser must load for a page, read once from Vite's build manifest: the entry
 * script, the CSS of the entry and of the matched page modules, and the page chunks to
 * modulepreload so that hydration never waits on a waterfall.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
}
type Manifest = Record<string, ManifestChunk>;

export interface PageAssets {
  entry: string;
  styles: string[];
  preloads: string[];
}

export const CLIENT_ENTRY = 'client/entry-client.tsx';

export interface ClientAssets {
  forModules(modules: readonly string[]): PageAssets;
}

/** Assets of the production build in `clientDir` (dist/client). */
export function readClientAssets(clientDir: string): ClientAssets {
  const manifest = JSON.parse(readFileSync(join(clientDir, '.vite/manifest.json'), 'utf8')) as Manifest;
  const url = (file: string) => `/${file}`;

  /** A chunk and, transitively, the chunks it imports statically. */
  function closure(key: string, seen = new Set<string>()): Set<string> {
    if (seen.has(key) || !manifest[key]) return seen;
    seen.add(key);
    for (const imported of manifest[key]!.imports ?? []) closure(imported, seen);
    return seen;
  }

  const entryChunks = closure(CLIENT_ENTRY);
  const memo = new Map<string, PageAssets>();

  return {
    forModules(modules) {
      const memoKey = modules.join('|');
      const known = memo.get(memoKey);
      if (known) return known;
      const chunks = new Set(entryChunks);
      for (const m of modules) closure(m, chunks);
      const styles = new Set<string>();
      const preloads: string[] = [];
      for (const key of chunks) {
        const chunk = manifest[key]!;
        for (const css of chunk.css ?? []) styles.add(url(css));
        if (key !== CLIENT_ENTRY) preloads.push(url(chunk.file));
      }
      const assets = { entry: url(manifest[CLIENT_ENTRY]!.file), styles: [...styles], preloads };
      memo.set(memoKey, assets);
      return assets;
    },
  };
}

/** In development Vite serves the sources; CSS arrives with the modules. */
export const devClientAssets: ClientAssets = {
  forModules: () => ({ entry: `/${CLIENT_ENTRY}`, styles: [], preloads: [] }),
};
