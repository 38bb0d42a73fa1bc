import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import wasm from 'vite-plugin-wasm';

// The API server (server/) serves dist/ and /api on one port; in `npm run dev` Vite proxies /api to it.
export default defineConfig({
  plugins: [react(), wasm()],
  worker: { format: 'es', plugins: () => [wasm()] },
  build: { target: 'es2022', sourcemap: true },
  server: { proxy: { '/api': `http://localhost:${process.env.PORT ?? 8080}` } },
});
