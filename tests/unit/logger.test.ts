import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { DrizzleQueryError } from 'drizzle-orm';
import { createLogger, logFunction, logSettings, requestIdFrom, requestLogger, type LogFormat } from '../../server/src/lib/logger';
import { errorMiddleware } from '../../server/src/lib/errors';
import { loadConfig } from '../../server/src/config';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** A logger whose lines land in an array. */
function captured(format: LogFormat = 'json', level = 'info') {
  const lines: string[] = [];
  const logger = createLogger({ level, format, destination: { write: (s: string) => void lines.push(s) } });
  return { logger, lines, json: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('request ids', () => {
  it('keeps a sane incoming X-Request-Id', () => {
    expect(requestIdFrom('abc-123')).toBe('abc-123');
    expect(requestIdFrom('A.b_C-9')).toBe('A.b_C-9');
    expect(requestIdFrom('x'.repeat(64))).toBe('x'.repeat(64));
    expect(requestIdFrom(['first-id', 'second-id'])).toBe('first-id');
  });

  it('generates a UUID when the header is missing, too long or carries other characters', () => {
    for (const bad of [undefined, '', 'x'.repeat(65), 'has space', 'semi;colon', 'new\nline', 'ümlaut', '<script>', 'a/b']) {
      expect(requestIdFrom(bad)).toMatch(UUID);
    }
    expect(requestIdFrom(undefined)).not.toBe(requestIdFrom(undefined));
  });
});

describe('settings', () => {
  it('is silent under vitest unless LOG_LEVEL is given, info otherwise', () => {
    expect(logSettings({ VITEST: 'true' }).level).toBe('silent');
    expect(logSettings({ VITEST: 'true', LOG_LEVEL: 'debug' }).level).toBe('debug');
    expect(logSettings({}).level).toBe('info');
    expect(logSettings({ LOG_LEVEL: 'WARN' }).level).toBe('warn');
    expect(logSettings({ LOG_LEVEL: 'loud' }).level).toBe('info');
    // A server process a test spawns logs at info: the test reads its output.
    expect(logSettings({ VITEST: 'true' }, true).level).toBe('info');
    expect(logSettings({ VITEST: 'true', LOG_LEVEL: 'silent' }, true).level).toBe('silent');
  });

  it('writes JSON in production or with LOG_FORMAT=json, readable lines otherwise', () => {
    expect(logSettings({}).format).toBe('text');
    expect(logSettings({ NODE_ENV: 'production' }).format).toBe('json');
    expect(logSettings({ LOG_FORMAT: 'json' }).format).toBe('json');
    expect(logSettings({ NODE_ENV: 'production', LOG_FORMAT: 'text' }).format).toBe('text');
  });

  it('refuses an unknown LOG_LEVEL or LOG_FORMAT and reads SHUTDOWN_TIMEOUT_MS', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'blast-logcfg-'));
    try {
      expect(() => loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
      expect(() => loadConfig({ DATA_DIR: dir, LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT/);
      expect(() => loadConfig({ DATA_DIR: dir, SHUTDOWN_TIMEOUT_MS: '-5' })).toThrow(/SHUTDOWN_TIMEOUT_MS/);
      expect(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'debug', LOG_FORMAT: 'json' }).shutdownTimeoutMs).toBe(10_000);
      expect(loadConfig({ DATA_DIR: dir, SHUTDOWN_TIMEOUT_MS: '2500' }).shutdownTimeoutMs).toBe(2500);
      expect(() => loadConfig({ DATA_DIR: dir, LOG_LEVEL: '', LOG_FORMAT: 'JSON' })).not.toThrow();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('redaction', () => {
  it('never writes passwords, tokens, cookies, the Authorization header or bodies', () => {
    const { logger, lines, json } = captured();
    logger.info(
      {
        password: 'pw-secret-1',
        token: 'tok-secret-2',
        body: { email: 'a@b.c', password: 'pw-secret-3' },
        user: { email: 'a@b.c', password: 'pw-secret-4', token: 'tok-secret-5' },
        req: { headers: { authorization: 'Bearer tok-secret-6', cookie: 'sid=ck-secret-7', 'x-sim-token': 'sim-secret-8', accept: 'text/html' } },
      },
      'a line with credentials',
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/secret/);
    const line = json()[0]!;
    expect(line).toMatchObject({
      msg: 'a line with credentials',
      level: 'info',
      password: '[redacted]',
      token: '[redacted]',
      body: '[redacted]',
      user: { email: 'a@b.c', password: '[redacted]', token: '[redacted]' },
      req: { headers: { authorization: '[redacted]', cookie: '[redacted]', 'x-sim-token': '[redacted]', accept: 'text/html' } },
    });
  });

  it("the context's log writes an error as `err`, with its message and stack", () => {
    const { logger, json } = captured();
    const log = logFunction(logger);
    log('plain notice');
    log('it broke', new Error('boom'), { jobId: 7 });
    const [notice, failure] = json();
    expect(notice).toMatchObject({ level: 'info', msg: 'plain notice' });
    expect(failure).toMatchObject({ level: 'error', msg: 'it broke', jobId: 7, err: { type: 'Error', message: 'boom' } });
    expect(String((failure!.err as { stack: string }).stack)).toContain('logger.test.ts');
  });

  it('readable lines carry the time, level, message, fields and the stack', () => {
    const { logger, lines } = captured('text');
    logFunction(logger)('it broke', new Error('boom'), { jobId: 7 });
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} ERROR it broke jobId=7\n {2}Error: boom\n +at /);
  });
});

describe('the request log', () => {
  function appWith(logger: ReturnType<typeof captured>['logger']) {
    const app = express();
    app.use(requestLogger(logger));
    app.use(express.json());
    app.get('/things', (_req, res) => void res.json({ ok: true }));
    app.post('/login', (_req, res) => void res.status(401).json({ msg: 'no' }));
    app.get('/broken', () => {
      throw new Error('kaput');
    });
    app.use(errorMiddleware(logFunction(logger)));
    return app;
  }

  it('writes one line per request with its id, method, path without query, status and duration', async () => {
    const { logger, lines, json } = captured();
    const res = await request(appWith(logger))
      .get('/things?q=private-search&token=tok-secret')
      .set('X-Request-Id', 'trace-42')
      .set('Authorization', 'Bearer tok-secret')
      .set('Cookie', 'sid=ck-secret');
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('trace-42');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/secret|private-search|Bearer|sid=/);
    const line = json()[0]!;
    expect(line).toMatchObject({ level: 'info', reqId: 'trace-42', method: 'GET', url: '/things', status: 200 });
    expect(typeof line.ms).toBe('number');
    expect(line).not.toHaveProperty('req');
    expect(line).not.toHaveProperty('res');
  });

  it('generates an id for a request without a sane one, and never logs a body', async () => {
    const { logger, lines, json } = captured();
    const res = await request(appWith(logger))
      .post('/login')
      .set('X-Request-Id', 'not a sane id')
      .send({ email: 'a@b.c', password: 'pw-secret' });
    expect(res.status).toBe(401);
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(lines.join('')).not.toMatch(/pw-secret|a@b\.c/);
    expect(json()[0]).toMatchObject({ level: 'warn', reqId: res.headers['x-request-id'], method: 'POST', url: '/login', status: 401 });
  });

  it("logs a 500 from the error middleware with the request's id", async () => {
    const { logger, json } = captured();
    const res = await request(appWith(logger)).get('/broken?x=1').set('X-Request-Id', 'trace-500');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ msg: 'Internal server error', code: expect.anything() });
    const all = json();
    const unhandled = all.find((l) => l.msg === 'Unhandled error');
    expect(unhandled).toMatchObject({ level: 'error', reqId: 'trace-500', method: 'GET', url: '/broken', err: { message: 'kaput' } });
    expect(all.find((l) => l.msg === 'request failed')).toMatchObject({ level: 'error', reqId: 'trace-500', status: 500 });
  });
});

describe('failed queries', () => {
  // What a call logs when the database refuses or drops a query (PostgreSQL restarting, say).
  const failed = () =>
    new DrizzleQueryError(
      'update "users" set "password_hash" = $1, "account_number" = $2 where "users"."id" = $3',
      ['scrypt$16384$8$1$c2VjcmV0', '1234567890', 7],
      new Error('terminating connection due to administrator command'),
    );

  for (const format of ['json', 'text'] as const) {
    it(`are logged (${format}) with the query and the reason but without their parameters`, () => {
      const { logger, lines } = captured(format);
      logFunction(logger)('Unhandled error', failed(), { reqId: 'r-1' });
      logFunction(logger)('Blast loop failed', new Error('the loop stopped', { cause: failed() }));
      // JSON escapes the query's quotes.
      const text = lines.join('').replaceAll('\\"', '"');
      expect(text).toContain('Failed query: update "users" set "password_hash"');
      expect(text).toContain('terminating connection due to administrator command');
      expect(text).toContain('the loop stopped');
      expect(text).not.toContain('scrypt$');
      expect(text).not.toContain('1234567890');
      expect(text).not.toContain('params');
    });
  }
});
