/**
 * What the browser must load for a page, read once from Vite's build manifest: the entry
 * script, the page chunks to modulepreload so that hydration never waits on a waterfall, and
 * the site's CSS, which the head carries inline so that the first paint waits on no request
 * (docs/decisions/010).
 */
import { createHash } from 'node:crypto';
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
  /** The CSS of the entry and of the matched page modules, to inline in <style>. */
  css: string;
  preloads: string[];
}

const CLIENT_ENTRY = 'client/entry-client.tsx';

export interface ClientAssets {
  /** Names the build: every instance of one build gives the same. */
  readonly version: string;
  forModules(modules: readonly string[]): PageAssets;
}

/** Assets of the production build in `clientDir` (dist/client). */
export function readClientAssets(clientDir: string): ClientAssets {
  const manifestText = readFileSync(join(clientDir, '.vite/manifest.json'), 'utf8');
  const manifest = JSON.parse(manifestText) as Manifest;
  const url = (file: string) => `/${file}`;

  /** A chunk and, transitively, the chunks it imports statically. */
  function closure(key: string, seen = new Set<string>()): Set<string> {
    if (seen.has(key) || !manifest[key]) return seen;
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) closure(imported, seen);
    return seen;
  }

  const entryChunks = closure(CLIENT_ENTRY);
  const memo = new Map<string, PageAssets>();
  const cssFiles = new Map<string, string>();
  // Our own build output; the guard keeps a stray `</style` from ending the element.
  const cssOf = (file: string) => {
    let css = cssFiles.get(file);
    if (css === undefined) {
      css = readFileSync(join(clientDir, file), 'utf8').replace(/<\/style/gi, '<\\/style');
      cssFiles.set(file, css);
    }
    return css;
  };

  return {
    // The manifest names every file by its content's hash.
    version: createHash('sha1').update(manifestText).digest('base64url').slice(0, 12),
    forModules(modules) {
      const memoKey = modules.join('|');
      const known = memo.get(memoKey);
      if (known) return known;
      const chunks = new Set(entryChunks);
      for (const m of modules) closure(m, chunks);
      // With CSS code splitting off, the site's one stylesheet is the manifest's `style.css`.
      const styles = new Set<string>(manifest['style.css'] ? [manifest['style.css'].file] : []);
      const preloads: string[] = [];
      for (const key of chunks) {
        const chunk = manifest[key]!;
        for (const css of chunk.css ?? []) styles.add(css);
        if (key !== CLIENT_ENTRY) preloads.push(url(chunk.file));
      }
      const css = [...styles].map(cssOf).join('\n');
      const assets = { entry: url(manifest[CLIENT_ENTRY]!.file), css, preloads };
      memo.set(memoKey, assets);
      return assets;
    },
  };
}

/** In development Vite serves the sources; CSS arrives with the modules. */
export const sourceClientAssets: ClientAssets = {
  version: `source-${Date.now()}`,
  forModules: () => ({ entry: `/${CLIENT_ENTRY}`, css: '', preloads: [] }),
};
