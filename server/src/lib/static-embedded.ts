import type express from 'express';
import type { Request, Response } from 'express';
import path from 'node:path';
import { embeddedBytes, embeddedManifest } from './embedded';
import { preloadLinks } from './preloads';

/**
 * The built console served from memory: inside the single executable its files (and their .br/.gz) are
 * assets, answered straight from the executable's mapped bytes, never unpacked. The same rules as the
 * folder's static server (./static.ts): the best variant the client accepts (with Vary), hashed files under
 * assets/ cached for a year, index.html revalidated, every other GET answered with index.html (with its
 * route's preload `Link` header, ./preloads.ts).
 */
export interface ClientFiles {
  /** URL path without the leading slash → its etag (of the plain file) and which variants exist. */
  files: Record<string, { etag: string; br: boolean; gz: boolean }>;
  /** The bytes of a file, or of its variant (`name.br`, `name.gz`). */
  read(key: string): Uint8Array;
}

/** The executable's client files: the packager writes them as `client/<path>` assets plus the manifest. */
export function embeddedClientFiles(): ClientFiles {
  return { files: embeddedManifest().client, read: (key) => embeddedBytes(`client/${key}`) };
}

const IMMUTABLE = 'public, max-age=31536000, immutable';

function cacheControl(rel: string): string {
  if (rel.startsWith('assets/')) return IMMUTABLE;
  if (rel === 'index.html') return 'no-cache';
  return 'public, max-age=3600';
}

export function serveClientFiles(app: express.Express, client: ClientFiles): void {
  if (!client.files['index.html']) return;
  const links = preloadLinks(client.files['.vite/preloads.json'] ? Buffer.from(client.read('.vite/preloads.json')).toString('utf8') : null);
  const send = (req: Request, res: Response, rel: string) => {
    const entry = client.files[rel]!;
    // Brotli first whenever the browser takes it (browsers list gzip first with the same weight).
    const encoding = entry.br && req.acceptsEncodings('br') ? 'br' : entry.gz && req.acceptsEncodings('gzip') ? 'gzip' : null;
    const variant = encoding === 'br' ? '.br' : encoding === 'gzip' ? '.gz' : '';
    if (entry.br || entry.gz) res.vary('Accept-Encoding');
    res.type(path.extname(rel) || 'html');
    res.setHeader('Cache-Control', cacheControl(rel));
    res.setHeader('ETag', `"${entry.etag}${variant}"`);
    if (encoding) res.setHeader('Content-Encoding', encoding);
    const link = rel === 'index.html' ? links(req.path) : undefined;
    if (link) res.setHeader('Link', link);
    if (req.fresh) {
      res.status(304).end();
      return;
    }
    const bytes = client.read(rel + variant);
    res.setHeader('Content-Length', String(bytes.byteLength));
    if (req.method === 'HEAD') res.end();
    else res.end(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  };
  app.use((req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let rel: string;
    try {
      rel = decodeURIComponent(req.path).replace(/^\/+/, '');
    } catch {
      return next();
    }
    // Client routes (and anything else not a file, dot folders' build metadata included) get the page.
    send(req, res, Object.hasOwn(client.files, rel) && !rel.split('/').some((p) => p.startsWith('.')) ? rel : 'index.html');
  });
}
