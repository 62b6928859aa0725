import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientManifest, compressAssets } from '../../scripts/build-lib.mjs';
import { serveClientFiles, type ClientFiles } from '../../server/src/lib/static-embedded';
import { placeAddon } from '../../server/src/db/sqlite/native';

/** A GET that keeps the body as sent (fetch would decompress it). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

let dir: string;
let server: http.Server;
let base: string;
const script = `console.log(${JSON.stringify('Blast console '.repeat(400))});\n`;
const indexHtml = `<!doctype html><html><body><div id="root"></div>${'<!-- padding -->'.repeat(20)}</body></html>\n`;
/** The build's route preloads (client/build/routePreloads.ts); a name that is not an asset is never sent. */
const PRELOADS = { '/member': ['/assets/App-Q1.js', '/assets/list-Z9.js'], '/signin': ['/assets/SignIn-K2.js'], '/evil': ['https://elsewhere.example/x.js', '/assets/a.js>; rel=preload'] };

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-embedded-'));
  const client = path.join(dir, 'client');
  fs.mkdirSync(path.join(client, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(client, 'index.html'), indexHtml);
  fs.writeFileSync(path.join(client, 'assets', 'index-AbC123.js'), script);
  fs.writeFileSync(path.join(client, 'robots.txt'), 'User-agent: *\n');
  fs.mkdirSync(path.join(client, '.vite'));
  fs.writeFileSync(path.join(client, '.vite', 'manifest.json'), JSON.stringify({ entries: 'x'.repeat(5000) }));
  fs.writeFileSync(path.join(client, '.vite', 'preloads.json'), JSON.stringify(PRELOADS));
  await compressAssets(client);
  // The executable's assets are the manifest plus every listed file under its key: here, read from the folder.
  const manifest = clientManifest(client);
  const files: ClientFiles = { files: manifest.client, read: (key) => new Uint8Array(fs.readFileSync(path.join(client, key))) };
  expect(manifest.files).toContain('assets/index-AbC123.js.br');
  const app = express();
  app.get('/api/config', (_req, res) => void res.json({ ok: true }));
  serveClientFiles(app, files);
  server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => {
  server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the client served from the executable', () => {
  it('answers brotli, gzip or the plain file as the browser accepts, hashed assets cached for a year', async () => {
    const br = await rawGet(`${base}/assets/index-AbC123.js`, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.body).toString()).toBe(script);
    const gz = await rawGet(`${base}/assets/index-AbC123.js`, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(script);
    const plain = await rawGet(`${base}/assets/index-AbC123.js`, { 'Accept-Encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
  });

  it('revalidates index.html at / and at every client route, and answers 304 to a matching etag', async () => {
    for (const url of ['/', '/index.html', '/whatsapp', '/phonenumber/create?page=2', '/.vite/manifest.json', '/.vite/preloads.json']) {
      const res = await rawGet(`${base}${url}`, { 'Accept-Encoding': 'br' });
      expect(res.status, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(zlib.brotliDecompressSync(res.body).toString(), url).toBe(indexHtml);
    }
    const first = await rawGet(`${base}/signin`, { 'Accept-Encoding': 'br' });
    const again = await rawGet(`${base}/signin`, { 'Accept-Encoding': 'br', 'If-None-Match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
  });

  it('serves a file with no variant as it is, with a short cache, and leaves other routes to the app', async () => {
    const res = await rawGet(`${base}/robots.txt`, { 'Accept-Encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.body.toString()).toBe('User-agent: *\n');
    expect(JSON.parse((await rawGet(`${base}/api/config`)).body.toString())).toEqual({ ok: true });
  });
});

describe("the SQLite addon's cached copy", () => {
  const bytes = new Uint8Array(fs.readFileSync(require.resolve('better-sqlite3/build/Release/better_sqlite3.node')));
  const hash = crypto.createHash('sha256').update(bytes).digest('hex');

  it('is written once under its hash in a 0700 folder, and found there the next time', () => {
    const folder = path.join(dir, 'native-1');
    const file = placeAddon(folder, bytes, hash);
    expect(path.basename(file)).toBe(`better_sqlite3-${hash.slice(0, 32)}.node`);
    expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
    const written = fs.statSync(file).mtimeMs;
    expect(placeAddon(folder, bytes, hash)).toBe(file);
    expect(fs.statSync(file).mtimeMs).toBe(written);
  });

  it('replaces a damaged file or a link in its place, never keeping them', () => {
    const folder = path.join(dir, 'native-2');
    const file = placeAddon(folder, bytes, hash);
    fs.chmodSync(file, 0o600);
    fs.writeFileSync(file, Buffer.from(bytes).subarray(0, 1000));
    expect(placeAddon(folder, bytes, hash)).toBe(file);
    expect(crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex')).toBe(hash);
    const elsewhere = path.join(dir, 'elsewhere.node');
    fs.copyFileSync(file, elsewhere);
    fs.rmSync(file);
    fs.symlinkSync(elsewhere, file);
    placeAddon(folder, bytes, hash);
    expect(fs.lstatSync(file).isSymbolicLink()).toBe(false);
  });

  it('refuses embedded bytes that do not match the recorded hash', () => {
    expect(() => placeAddon(path.join(dir, 'native-3'), bytes.subarray(0, 100), hash)).toThrow(/does not match/);
  });
  it("names the route's JavaScript in a modulepreload Link header of its page, and nothing on other answers", async () => {
    const get = (url: string) => rawGet(`${base}${url}`, { 'Accept-Encoding': 'br' });
    expect((await get('/member')).headers.link).toBe('</assets/App-Q1.js>; rel=modulepreload, </assets/list-Z9.js>; rel=modulepreload');
    expect((await get('/member/?page=2')).headers.link).toBe('</assets/App-Q1.js>; rel=modulepreload, </assets/list-Z9.js>; rel=modulepreload');
    expect((await get('/signin')).headers.link).toBe('</assets/SignIn-K2.js>; rel=modulepreload');
    for (const url of ['/', '/whatsapp', '/evil', '/assets/index-AbC123.js', '/robots.txt']) expect((await get(url)).headers.link, url).toBeUndefined();
  });
});
