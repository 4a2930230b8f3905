import { relative } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';

/** One line per build instead of a line per file (Vite's own report is kept for warnings). */
function buildSummary(what: string): Plugin {
  return {
    name: 'build-summary',
    apply: 'build',
    writeBundle(options, bundle) {
      const files = Object.values(bundle);
      const size = (f: (typeof files)[number]) => (f.type === 'chunk' ? Buffer.byteLength(f.code) : f.source.length);
      const js = files.filter((f) => f.fileName.endsWith('.js'));
      const kb = (n: number) => `${Math.round(n / 1024)} KB`;
      process.stdout.write(
        `built ${what}: ${js.length} scripts, ${kb(js.reduce((n, f) => n + size(f), 0))} → ${relative(process.cwd(), options.dir ?? '')}\n`,
      );
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
    ...(isSsrBuild ? [] : [compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(js|css|svg|json)$/, threshold: 1024 })]),
    buildSummary(isSsrBuild ? 'the server' : 'the browser app'),
  ],
  logLevel: command === 'build' ? 'warn' : 'info',
  publicDir: 'client/public',
  build: isSsrBuild
    ? {
        outDir: 'dist/server',
        copyPublicDir: false,
        emptyOutDir: true,
        target: 'node26',
        // Every chunk beside index.js, so that each finds dist/client at ../client.
        rollupOptions: {
          input: { index: 'server/index.ts', 'content-api': 'server/content-api.ts' },
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
        rollupOptions: { input: 'client/entry-client.tsx' },
      },
}));
