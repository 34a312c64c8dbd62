import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Text files worth compressing; images and fonts (png, woff2) are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
const MIN_BYTES = 1024;

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy next to every compressible file of the build, so
 * the server sends them by Accept-Encoding without compressing per request (issue 10 item 11).
 * A copy that saves nothing is not written; the server then sends the plain file.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'accredo-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        fs
          .readdirSync(dir, { withFileTypes: true })
          .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const data = fs.readFileSync(file);
        if (data.length < MIN_BYTES) continue;
        const br = zlib.brotliCompressSync(data, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        });
        const gz = zlib.gzipSync(data, { level: zlib.constants.Z_BEST_COMPRESSION });
        if (br.length < data.length * 0.9) fs.writeFileSync(`${file}.br`, br);
        if (gz.length < data.length * 0.9) fs.writeFileSync(`${file}.gz`, gz);
      }
    },
  };
}

/** The web SPA: admin, online registration, preview and manage apps in one bundle, served by the backend. */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), precompress()],
  resolve: { conditions: ['@accredo/source', 'module', 'browser', 'development|production'] },
  // No source maps in the production build: the server would hand the whole source to anyone.
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 2000 },
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:8080' } },
});
