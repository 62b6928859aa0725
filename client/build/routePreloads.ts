import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { routePreloads, type Manifest } from './routeChunks';

/** Where the build writes the routes' preloads, inside the client's output folder. */
export const PRELOADS_FILE = '.vite/preloads.json';

/**
 * Writes `.vite/preloads.json` next to Vite's manifest: each route's JavaScript files beyond the entry's
 * (./routeChunks.ts). The server names them in a `Link: rel=modulepreload` header of the route's page, so a
 * cold load fetches the console, the layout and the screen at once instead of one lazy import after another.
 */
export function routePreloadsPlugin(): Plugin {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  return {
    name: 'route-preloads',
    apply: 'build',
    writeBundle(options, bundle) {
      const asset = bundle['.vite/manifest.json'];
      if (!asset || asset.type !== 'asset' || !options.dir) return;
      const manifest = JSON.parse(typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source)) as Manifest;
      fs.mkdirSync(path.join(options.dir, '.vite'), { recursive: true });
      fs.writeFileSync(path.join(options.dir, PRELOADS_FILE), JSON.stringify(routePreloads(root, manifest)));
    },
  };
}
