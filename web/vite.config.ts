import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;

/**
 * Writes a `.br` and a `.gz` beside every text asset once the bundle is written, so the server
 * sends them as they are (`@fastify/static`'s `preCompressed`) rather than compressing per request.
 */
function precompress(): Plugin {
  return {
    name: 'switchboard-precompress',
    apply: 'build',
    closeBundle() {
      const walk = (dir: string): void => {
        for (const name of readdirSync(dir)) {
          const path = join(dir, name);
          if (statSync(path).isDirectory()) {
            walk(path);
          } else if (COMPRESSIBLE.test(name)) {
            const content = readFileSync(path);
            writeFileSync(`${path}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
            writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
          }
        }
      };
      walk(join(webRoot, 'dist'));
    },
  };
}

/** Where `npm run dev` finds the API server that Vite's dev server forwards to. */
const apiTarget = process.env.SWITCHBOARD_DEV_API ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: webRoot,
  base: '/app/',
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: join(webRoot, 'dist'),
    emptyOutDir: true,
    sourcemap: true,
    // No inline scripts or data: URLs for code: the CSP of /app/ forbids them.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    // The budget that matters is the first load gzipped (under 300 kB, checked by the tests); the
    // main chunk is past Vite's 500 kB uncompressed warning by design (React, router, query).
    chunkSizeWarningLimit: 800,
  },
  server: {
    port: 5173,
    strictPort: false,
    proxy: {
      // Same origin as far as the API can tell: the session cookie is sent, and a write's Origin
      // is the API's own, as it is when the server serves the built console.
      '/v1': {
        target: apiTarget,
        changeOrigin: true,
        configure: (proxy) => proxy.on('proxyReq', (request) => request.setHeader('origin', apiTarget)),
      },
    },
  },
});
