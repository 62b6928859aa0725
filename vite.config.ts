import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: 'client',
  plugins: [react()],
  resolve: {
    alias: [
      // @refinedev/core and @refinedev/react-router parse and write the table's query string with qs; its
      // polyfill chain (side-channel, object-inspect, get-intrinsic…) was about 15 KB gzip in every console
      // screen. qs-esm is the maintained fork with the same parse/stringify options (client/src/lib/qs.ts).
      { find: /^qs$/, replacement: fileURLToPath(new URL('./client/src/lib/qs.ts', import.meta.url)) },
      // rc-resize-observer (antd) imports a ResizeObserver polyfill; the browser's own is used instead.
      { find: /^resize-observer-polyfill$/, replacement: fileURLToPath(new URL('./client/src/lib/resizeObserver.ts', import.meta.url)) },
    ],
  },
  build: {
    outDir: '../dist/client',
    emptyOutDir: true,
    // bench/client.ts reads which chunks each route downloads from the manifest.
    manifest: true,
    chunkSizeWarningLimit: 600,
    rollupOptions: {
      treeshake: {
        // Packages that declare no sideEffects field but have none: without this, @refinedev/antd's
        // unused MarkdownField keeps react-markdown and its parser in every console screen.
        moduleSideEffects: [
          {
            test: /node_modules\/(react-markdown|remark-[^/]+|rehype-[^/]+|micromark[^/]*|mdast-[^/]+|hast-[^/]+|unist-[^/]+|unified|vfile[^/]*|property-information|html-url-attributes|devlop|bail|trough|is-plain-obj|decode-named-character-reference|character-entities[^/]*|comma-separated-tokens|space-separated-tokens|estree-util-[^/]+|style-to-[^/]+|inline-style-parser|trim-lines|ccount|markdown-table|zwitch|longest-streak|papaparse)\//,
            sideEffects: false,
          },
        ],
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': 'http://localhost:3000',
      '/uploads': 'http://localhost:3000',
      '/socket.io': { target: 'http://localhost:3000', ws: true },
    },
  },
});
