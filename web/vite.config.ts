/// <reference types="vitest/config" />
import { cpSync, createReadStream, existsSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, normalize, resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** The address of a locally running `needl serve` for `npm run dev`. */
const backend = process.env.NEEDL_API ?? 'http://127.0.0.1:8080';

const pdfjsRoot = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
/** What pdf.js loads on demand: standard fonts, character maps, image decoders, colour profiles. */
const PDFJS_DIRS = ['standard_fonts', 'cmaps', 'wasm', 'iccs'];
/** pdf.js's scripting engine: the app never runs PDF scripts. */
const wanted = (path: string) => !/^(quickjs|LICENSE_(PDFJS_)?QUICKJS)/.test(basename(path));

/** Serves pdf.js's on-demand files under /pdfjs/ during `npm run dev`. */
function pdfjsDevAssets(): Plugin {
  return {
    name: 'needl-pdfjs-dev-assets',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use('/pdfjs', (req, res, next) => {
        const file = normalize(join(pdfjsRoot, decodeURIComponent((req.url ?? '/').split('?')[0])));
        if (!file.startsWith(pdfjsRoot) || !existsSync(file) || !statSync(file).isFile()) return next();
        if (file.endsWith('.wasm')) res.setHeader('content-type', 'application/wasm');
        createReadStream(file).pipe(res);
      });
    },
  };
}

/**
 * Copies pdf.js's on-demand files to dist/pdfjs/ after a build, so a PDF renders with the
 * server's own files and no other network. Build only: Vitest closes its server too.
 */
function pdfjsBuildAssets(): Plugin {
  let outDir = 'dist';
  return {
    name: 'needl-pdfjs-build-assets',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      for (const dir of PDFJS_DIRS) {
        cpSync(join(pdfjsRoot, dir), join(outDir, 'pdfjs', dir), { recursive: true, filter: wanted });
      }
    },
  };
}

export default defineConfig({
  plugins: [react(), pdfjsDevAssets(), pdfjsBuildAssets()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // A feature's pages entry (src/features/<feature>/pages.ts) is named after the feature.
        chunkFileNames: (chunk) => {
          const feature = chunk.facadeModuleId?.match(/features[\\/]([^\\/]+)[\\/]pages\.ts$/)?.[1];
          return `assets/${feature ? `${feature}-pages` : '[name]'}-[hash].js`;
        },
        codeSplitting: {
          groups: [
            // React and its router: shared by every page and changed rarely, so cached apart.
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|react-router|scheduler|use-sync-external-store|cookie|set-cookie-parser)[\\/]/,
              priority: 40,
            },
            // The heavy libraries, each in a chunk of its own that loads with the page needing it.
            { name: 'pdfjs', test: /node_modules[\\/]pdfjs-dist[\\/]/, priority: 30 },
            { name: 'editor', test: /node_modules[\\/](@tiptap|prosemirror-[a-z-]+)[\\/]/, priority: 30 },
            { name: 'markdown', test: /node_modules[\\/](react-markdown|remark-gfm)[\\/]/, priority: 30 },
            // The rest of what the first page needs (the shell, the query and machine libraries) in
            // the entry chunk, rather than a few dozen small chunks shared with the pages.
            { name: 'index', tags: ['$initial'], priority: 10 },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      '/api': { target: backend, changeOrigin: true, ws: true },
    },
  },
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
    // `findBy…` waits up to 5 s (src/test/setup.ts), so a test holding two such waits on a loaded
    // two-core machine needs longer than Vitest's default 5 s to end honestly.
    testTimeout: 30_000,
  },
});
