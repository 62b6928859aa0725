import type express from 'express';
import expressStaticGzip from 'express-static-gzip';
import type { ServerResponse } from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { embeddedClientFiles, serveClientFiles } from './static-embedded';
import { preloadLinks } from './preloads';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the built console from `dir`: the .br/.gz written next to each file by the build (chosen from
 * Accept-Encoding, with Vary), hashed files under /assets/ cached for a year, index.html revalidated on every
 * load so a new build reaches users at once, and every other GET answered with index.html (client routes),
 * with its route's JavaScript named in a preload `Link` header (./preloads.ts).
 * Does nothing when the client has not been built. With no folder (the single executable, CLIENT_DIST
 * unset), the files embedded in the executable are served by the same rules.
 */
export function serveClient(app: express.Express, dir: string | null): void {
  if (dir === null) return serveClientFiles(app, embeddedClientFiles());
  const root = path.resolve(dir);
  if (!fs.existsSync(path.join(root, 'index.html'))) return;
  const setHeaders = (res: ServerResponse, file: string) => {
    const rel = path.relative(root, file).split(path.sep).join('/').replace(/\.(br|gz)$/, '');
    if (rel.startsWith('assets/')) res.setHeader('Cache-Control', IMMUTABLE);
    else if (rel === 'index.html') res.setHeader('Cache-Control', 'no-cache');
    else res.setHeader('Cache-Control', 'public, max-age=3600');
  };
  const files = expressStaticGzip(root, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: { index: false, cacheControl: false, setHeaders },
  });
  app.use(files);
  const preloadsFile = path.join(root, '.vite', 'preloads.json');
  const links = preloadLinks(fs.existsSync(preloadsFile) ? fs.readFileSync(preloadsFile, 'utf8') : null);
  app.get(/.*/, (req, res, next) => {
    const link = links(req.path);
    if (link) res.setHeader('Link', link);
    req.url = '/index.html';
    files(req, res, next);
  });
}
