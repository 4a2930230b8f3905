import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

// Two builds: the browser bundle (dist/client, with a manifest the server reads to preload
// each page's chunks) and the server (dist/server: the shell plus the app's render module).
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    react(),
    // Build-time brotli and gzip copies of the browser's files, served as they are (no
    // compression work per request).
    ...(isSsrBuild ? [] : [compression({ algorithms: ['brotliCompress', 'gzip'], include: /\.(js|css|svg|json)$/, threshold: 1024 })]),
  ],
  publicDir: 'client/public',
  build: isSsrBuild
    ? {
        outDir: 'dist/server',
        copyPublicDir: false,
        emptyOutDir: true,
        target: 'node26',
        // Every chunk beside index.js, so that each finds dist/client at ../client.
        rollupOptions: { input: { index: 'server/index.ts' }, output: { chunkFileNames: '[name]-[hash].js' } },
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
