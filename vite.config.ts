import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: 'client',
  plugins: [react()],
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
