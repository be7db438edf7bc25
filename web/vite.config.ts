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
  build: { outDir: 'dist', emptyOutDir: true },
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
  },
});
