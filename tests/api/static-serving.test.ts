import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressAssets } from '../../scripts/build-lib.mjs';
import { startTestApp, type TestApp } from '../helpers';

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET that keeps the body as sent (fetch and supertest would decompress it). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
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
let app: TestApp;
const script = `console.log(${JSON.stringify('Blast console '.repeat(400))});\n`;
const indexHtml = `<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script></head><body><div id="root"></div>${'<!-- padding -->'.repeat(20)}</body></html>\n`;
/** The build's route preloads (client/build/routePreloads.ts); a name that is not an asset is never sent. */
const PRELOADS = { '/member': ['/assets/App-Q1.js', '/assets/list-Z9.js'], '/signin': ['/assets/SignIn-K2.js'], '/evil': ['https://elsewhere.example/x.js', '/assets/a.js>; rel=preload'] };

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-client-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), indexHtml);
  fs.writeFileSync(path.join(dir, 'assets', 'index-AbC123.js'), script);
  fs.writeFileSync(path.join(dir, 'robots.txt'), 'User-agent: *\n');
  fs.mkdirSync(path.join(dir, '.vite'));
  fs.writeFileSync(path.join(dir, '.vite', 'manifest.json'), JSON.stringify({ entries: 'x'.repeat(5000) }));
  fs.writeFileSync(path.join(dir, '.vite', 'preloads.json'), JSON.stringify(PRELOADS));
  await compressAssets(dir);
  app = await startTestApp({ clientDist: dir });
});

afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('the built console', () => {
  it('is built with a .br and a .gz next to each compressible file, when smaller', () => {
    expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, 'assets', 'index-AbC123.js.br'))).toString()).toBe(script);
    expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, 'assets', 'index-AbC123.js.gz'))).toString()).toBe(script);
    // Fourteen bytes do not get smaller: no variant is written, the file is served as it is.
    expect(fs.existsSync(path.join(dir, 'robots.txt.br'))).toBe(false);
    // Build metadata in dot folders is neither compressed nor served.
    expect(fs.existsSync(path.join(dir, '.vite', 'manifest.json.br'))).toBe(false);
  });

  it('serves a hashed asset pre-compressed with brotli, cached for a year', async () => {
    const res = await rawGet(`${app.baseUrl}/assets/index-AbC123.js`, { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/Accept-Encoding/);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.body.equals(fs.readFileSync(path.join(dir, 'assets', 'index-AbC123.js.br')))).toBe(true);
    expect(zlib.brotliDecompressSync(res.body).toString()).toBe(script);
  });

  it('serves gzip to a client without brotli, and the plain file to one without either', async () => {
    const gz = await rawGet(`${app.baseUrl}/assets/index-AbC123.js`, { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).toString()).toBe(script);
    const plain = await rawGet(`${app.baseUrl}/assets/index-AbC123.js`, { 'Accept-Encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(script);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('revalidates index.html, at / and at every client route', async () => {
    for (const url of ['/', '/index.html', '/whatsapp', '/phonenumber/create?page=2']) {
      const res = await rawGet(`${app.baseUrl}${url}`, { 'Accept-Encoding': 'br' });
      expect(res.status, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(zlib.brotliDecompressSync(res.body).toString(), url).toBe(indexHtml);
    }
  });

  it('keeps the API and its errors apart from the console', async () => {
    const config = await rawGet(`${app.baseUrl}/api/config`);
    expect(config.status).toBe(200);
    expect(JSON.parse(config.body.toString())).toHaveProperty('gateway');
    const unknown = await rawGet(`${app.baseUrl}/api/nothing-here`);
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toMatch(/json/);
  });

  it('never serves the build metadata of dot folders', async () => {
    const res = await rawGet(`${app.baseUrl}/.vite/manifest.json`);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body.toString()).not.toContain('entries');
    const preloads = await rawGet(`${app.baseUrl}/.vite/preloads.json`);
    expect(preloads.headers['content-type']).toMatch(/text\/html/);
    expect(preloads.body.toString()).not.toContain('App-Q1');
  });

  it('serves other files uncompressed when no variant exists, with a short cache', async () => {
    const res = await rawGet(`${app.baseUrl}/robots.txt`, { 'Accept-Encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(res.body.toString()).toBe('User-agent: *\n');
  });
  it("names the route's JavaScript in a modulepreload Link header of its page, and nothing on other answers", async () => {
    const get = (url: string) => rawGet(`${app.baseUrl}${url}`, { 'Accept-Encoding': 'br' });
    expect((await get('/member')).headers.link).toBe('</assets/App-Q1.js>; rel=modulepreload, </assets/list-Z9.js>; rel=modulepreload');
    expect((await get('/member/?page=2')).headers.link).toBe('</assets/App-Q1.js>; rel=modulepreload, </assets/list-Z9.js>; rel=modulepreload');
    expect((await get('/signin')).headers.link).toBe('</assets/SignIn-K2.js>; rel=modulepreload');
    for (const url of ['/', '/whatsapp', '/evil', '/assets/index-AbC123.js', '/robots.txt']) expect((await get(url)).headers.link, url).toBeUndefined();
  });
});
