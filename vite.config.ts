import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { API_REFERENCE_SOURCE } from './server/http/api-docs-paths.js';
import runtime from './scripts/node-runtime/package.json' with { type: 'json' };

/** One line per build instead of a line per file (Vite's own report is kept for warnings). */
function buildSummary(what: string): Plugin {
  return {
    name: 'build-summary',
    apply: 'build',
    writeBundle(options, bundle) {
      const files = Object.values(bundle);
      const size = (f: (typeof files)[number]) => (f.type === 'chunk' ? Buffer.byteLength(f.code) : f.source.length);
      // The app's own scripts: not the API reference bundle, an emitted asset.
      const js = files.filter((f) => f.type === 'chunk' && f.fileName.endsWith('.js'));
      const kb = (n: number) => `${Math.round(n / 1024)} KB`;
      process.stdout.write(
        `built ${what}: ${js.length} scripts, ${kb(js.reduce((n, f) => n + size(f), 0))} → ${relative(process.cwd(), options.dir ?? '')}\n`,
      );
    },
  };
}

/**
 * The API reference page's script (docs/decisions/024): the standalone bundle of
 * @scalar/api-reference, emitted among the browser's files so that it is fingerprinted,
 * precompressed and served like them. The server finds it in the manifest by API_REFERENCE_SOURCE.
 */
function apiReferenceBundle(): Plugin {
  const file = join(dirname(fileURLToPath(import.meta.resolve('@scalar/api-reference'))), 'browser/standalone.js');
  return {
    name: 'api-reference-bundle',
    apply: 'build',
    generateBundle() {
      // The source map is not shipped: without this line the browser would ask for it.
      const source = readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
      this.emitFile({ type: 'asset', name: 'api-reference.js', originalFileName: API_REFERENCE_SOURCE, source });
    },
  };
}

/**
 * The embedded content API's uploads (server/embedded-api/uploads.ts), emitted beside the server's
 * chunks, where that module finds them (`./uploads/`) once built.
 */
function embeddedUploads(): Plugin {
  const root = 'server/embedded-api/uploads';
  return {
    name: 'embedded-uploads',
    apply: 'build',
    generateBundle() {
      for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile()) continue;
        const file = join(entry.parentPath, entry.name);
        this.emitFile({ type: 'asset', fileName: join('uploads', relative(root, file)), source: readFileSync(file) });
      }
    },
  };
}

/**
 * How the browser's scripts are cut into files (docs/decisions/030). Everything the entry imports
 * statically, and what the entry module itself imports dynamically, is one file: left to itself,
 * Rolldown moves what the entry shares with the lazy pages (React, React Router, the route table)
 * into a common chunk, one more request on every first view for code that always loads. The
 * components the home page (the usual first view) shares with other pages are one file too,
 * rather than a small chunk each.
 */
function scriptChunks(): Plugin {
  type Graph = {
    getModuleInfo(
      id: string,
    ): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[]; importers: readonly string[] } | null;
  };
  const entry = resolve('client/entry-client.tsx');
  const home = resolve('client/pages/home-page.tsx');
  const closure = (graph: Graph, from: readonly string[]) => {
    const found = new Set<string>();
    const stack = [...from];
    for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
      if (found.has(id)) continue;
      found.add(id);
      stack.push(...(graph.getModuleInfo(id)?.importedIds ?? []));
    }
    return found;
  };
  /** Each grouped module's file: the entry's closure, then what the home page shares. */
  const planFor = (graph: Graph) => {
    const files = new Map<string, string>();
    // What the entry itself imports dynamically (React DOM's client) always loads: it is in the
    // entry's file, and the import only defers its evaluation (client/entry-client.tsx).
    const deferred = graph.getModuleInfo(entry)?.dynamicallyImportedIds ?? [];
    for (const id of closure(graph, [entry, ...deferred])) files.set(id, 'entry-client');
    for (const id of closure(graph, graph.getModuleInfo(home)?.importedIds ?? [])) {
      const sharedWithOthers = graph.getModuleInfo(id)?.importers.some((by) => by !== home);
      if (!files.has(id) && sharedWithOthers) files.set(id, 'home-parts');
    }
    return files;
  };
  let plan: Map<string, string> | undefined;
  return {
    name: 'script-chunks',
    apply: 'build',
    buildStart() {
      plan = undefined;
    },
    outputOptions(options) {
      const name = (id: string, graph: Graph) => (plan ??= planFor(graph)).get(id) ?? null;
      return { ...options, codeSplitting: { groups: [{ name }] } };
    },
  };
}

// Two builds: the browser bundle (dist/client, with a manifest the server reads to name each
// page's chunks) and the server (dist/server: the shell plus the app's render module).
export default defineConfig(({ command, isSsrBuild }) => ({
  plugins: [
    react(),
    // Build-time brotli and gzip copies of the browser's files, served as they are (no
    // compression work per request).
    ...(isSsrBuild ? [embeddedUploads()] : [apiReferenceBundle(), scriptChunks()]),
    ...(isSsrBuild ? [] : [compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(js|css|svg|json)$/, threshold: 1024 })]),
    buildSummary(isSsrBuild ? 'the server' : 'the browser app'),
  ],
  logLevel: command === 'build' ? 'warn' : 'info',
  publicDir: 'client/public',
  // BudouX is bundled, as in the browser's files, to its parser and Chinese model: the server does not
  // load its HTML processor's DOM (linkedom), and the image installs none of its dependencies
  // (docs/decisions/061).
  ssr: { noExternal: ['budoux'] },
  build: isSsrBuild
    ? {
        outDir: 'dist/server',
        copyPublicDir: false,
        emptyOutDir: true,
        target: `node${runtime.version.split('.')[0]}`,
        // Every chunk beside index.js, so that each finds dist/client at ../client.
        rollupOptions: {
          input: { index: 'server/index.ts', 'demo-content-api': 'server/demo-content-api.ts' },
          output: { chunkFileNames: '[name]-[hash].js' },
        },
      }
    : {
        outDir: 'dist/client',
        manifest: true,
        // One stylesheet for the whole site, inlined in every page's head (docs/decisions/010).
        cssCodeSplit: false,
        emptyOutDir: true,
        target: 'es2022',
        rollupOptions: {
          input: 'client/entry-client.tsx',
          // Brotli at its best quality on the 4 MB API reference bundle takes seconds, every build:
          // known and accepted, so not reported as a slow plugin.
          checks: { bundlerTimings: false },
        },
      },
}));
