import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The web SPA: admin, online registration, preview and manage apps in one bundle, served by the backend. */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  resolve: { conditions: ['@accredo/source', 'module', 'browser', 'development|production'] },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 2000 },
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:8080' } },
});
