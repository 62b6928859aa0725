import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { io as ioClient, type Socket } from 'socket.io-client';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig, parseTrustProxy, type Config } from '../../server/src/config';
import { connected, startTestApp, unbatched, type TestApp } from '../helpers';

const apps: TestApp[] = [];
const sockets: Socket[] = [];
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});
afterAll(async () => {
  for (const t of apps) await t.close();
});

async function app(overrides: Partial<Config> = {}): Promise<{ t: TestApp; token: string; port: number }> {
  const t = await startTestApp(overrides);
  apps.push(t);
  const admin = await t.user('admin');
  return { t, token: admin.token, port: Number(new URL(t.baseUrl).port) };
}

/** What the client sees when allowRequest refuses the handshake (a bad token reads differently). */
const REFUSED = 'websocket error';

/** A websocket handshake with the headers a browser behind a proxy would arrive with. */
function handshake(baseUrl: string, token: string, headers: Record<string, string>): Promise<'connected' | string> {
  const s = unbatched(ioClient(baseUrl, { auth: { token }, transports: ['websocket'], reconnection: false, forceNew: true, extraHeaders: headers }));
  sockets.push(s);
  return connected(s).then(
    () => 'connected',
    (err: Error) => err.message,
  );
}

describe('the live connection behind a reverse proxy', () => {
  it('accepts a proxy on loopback that rewrites Host and forwards the browser’s host in X-Forwarded-Host', async () => {
    const { t, token, port } = await app();
    const proxied = { Origin: 'https://console.example.com', Host: `127.0.0.1:${port}`, 'X-Forwarded-Host': 'console.example.com' };
    expect(await handshake(t.baseUrl, token, proxied)).toBe('connected');
    // Only the first of a chain of forwarded hosts is the browser's.
    expect(await handshake(t.baseUrl, token, { ...proxied, 'X-Forwarded-Host': 'console.example.com, inner.internal' })).toBe('connected');
    expect(await handshake(t.baseUrl, token, { ...proxied, 'X-Forwarded-Host': 'inner.internal, console.example.com' })).toBe(REFUSED);
    // Without the forwarded host, the rewritten Host does not match the browser's origin.
    expect(await handshake(t.baseUrl, token, { Origin: 'https://console.example.com', Host: `127.0.0.1:${port}` })).toBe(REFUSED);
    // The app's own origin, direct, as before.
    expect(await handshake(t.baseUrl, token, { Origin: t.baseUrl })).toBe('connected');
  });

  it('refuses the same handshake when TRUST_PROXY=false', async () => {
    const { t, token, port } = await app({ trustProxy: false });
    const res = await handshake(t.baseUrl, token, { Origin: 'https://console.example.com', Host: `127.0.0.1:${port}`, 'X-Forwarded-Host': 'console.example.com' });
    expect(res).toBe(REFUSED);
    expect(await handshake(t.baseUrl, token, { Origin: t.baseUrl })).toBe('connected');
  });

  it('ignores X-Forwarded-Host from a peer outside the trusted addresses', async () => {
    const { t, token, port } = await app({ trustProxy: '10.0.0.0/8, 192.168.1.5' });
    const res = await handshake(t.baseUrl, token, { Origin: 'https://console.example.com', Host: `127.0.0.1:${port}`, 'X-Forwarded-Host': 'console.example.com' });
    expect(res).toBe(REFUSED);
    expect(await handshake(t.baseUrl, token, { Origin: t.baseUrl })).toBe('connected');
  });

  it('accepts an origin listed in ALLOWED_ORIGINS and refuses an unlisted foreign one', async () => {
    const { t, token } = await app({ allowedOrigins: ['https://console.example.com'] });
    expect(await handshake(t.baseUrl, token, { Origin: 'https://console.example.com' })).toBe('connected');
    expect(await handshake(t.baseUrl, token, { Origin: 'https://evil.example.net' })).toBe(REFUSED);
    expect(await handshake(t.baseUrl, token, { Origin: 'https://evil.example.net', 'X-Forwarded-Host': 'console.example.com' })).toBe(REFUSED);
  });
});

describe('request ids through the app', () => {
  it('echoes a sane X-Request-Id and generates one otherwise', async () => {
    const { t } = await app();
    const echoed = await t.http.get('/api/config').set('X-Request-Id', 'edge-7f3a.1_b');
    expect(echoed.status).toBe(200);
    expect(echoed.headers['x-request-id']).toBe('edge-7f3a.1_b');
    const generated = await t.http.get('/api/config');
    expect(generated.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const replaced = await t.http.get('/api/no-such-route').set('X-Request-Id', 'x'.repeat(65));
    expect(replaced.status).toBe(404);
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(replaced.headers['x-request-id']).not.toBe(generated.headers['x-request-id']);
  });
});

describe('TRUST_PROXY', () => {
  it('takes true/false, a hop count or a list of addresses and subnets, loopback by default', () => {
    expect(parseTrustProxy(undefined)).toBe('loopback');
    expect(parseTrustProxy('')).toBe('loopback');
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('FALSE')).toBe(false);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy('loopback, 10.0.0.0/8 ,fd00::/8')).toBe('loopback,10.0.0.0/8,fd00::/8');
  });

  it('refuses a value Express cannot read, naming the variable', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-proxycfg-'));
    try {
      expect(() => loadConfig({ DATA_DIR: dir, TRUST_PROXY: 'not-an-address' })).toThrow(/TRUST_PROXY/);
      expect(() => loadConfig({ DATA_DIR: dir, TRUST_PROXY: '10.0.0.0/99' })).toThrow(/TRUST_PROXY/);
      expect(loadConfig({ DATA_DIR: dir, TRUST_PROXY: '1' }).trustProxy).toBe(1);
      expect(loadConfig({ DATA_DIR: dir }).trustProxy).toBe('loopback');
      expect(loadConfig({ DATA_DIR: dir, ALLOWED_ORIGINS: 'https://a.example.com/, https://b.example.com' }).allowedOrigins).toEqual([
        'https://a.example.com',
        'https://b.example.com',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
