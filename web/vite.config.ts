// The web interface's bundle: built into dist/web by `npm run build` (tools/build/web.ts), served by the
// API server at `/`. `npx vite web` serves it with live reload, the API proxied to BINLENS_API (default
// the server's own address).
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = process.env.BINLENS_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  build: { outDir: '../dist/web', emptyOutDir: true, chunkSizeWarningLimit: 1024 },
  server: { proxy: { '/v2': api, '/v3': api, '/openapi.json': api } },
});
