import { z } from 'zod';
import express from 'express';
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { operatorCredentials } from './auth/operator';
import { fromRoot } from './lib/paths';
import { isEmbedded } from './lib/embedded';
import { LOG_LEVELS } from './lib/logger';
import { isRole, type Role } from '../../common/roles';

const boolish = z
  .string()
  .optional()
  .transform((v) => (v === undefined ? undefined : !['0', 'false', 'no', 'off', ''].includes(v.toLowerCase())));

/** Express's 'trust proxy' value: true/false, a hop count, or a comma list of addresses, subnets and names. */
export type TrustProxy = boolean | number | string;

/** TRUST_PROXY → the value Express takes; a list Express cannot compile (a bad address or subnet) is refused. */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const v = (raw ?? '').trim();
  if (v === '') return 'loopback';
  if (/^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  if (/^\d+$/.test(v)) return Number(v);
  const list = v.split(',').map((s) => s.trim()).filter(Boolean).join(',');
  express().set('trust proxy', list); // throws on an address or subnet proxy-addr cannot read
  return list;
}

const trustProxy = z
  .string()
  .optional()
  .transform((v, ctx) => {
    try {
      return parseTrustProxy(v);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: `not a trust proxy value (${err instanceof Error ? err.message : String(err)})` });
      return z.NEVER;
    }
  });

/** REQUIRE_2FA=admin,dev: a comma list of roles; an unknown word is refused rather than silently ignored. */
const require2fa = z
  .string()
  .optional()
  .transform((v, ctx): Role[] => {
    const words = (v ?? '').split(',').map((w) => w.trim().toLowerCase()).filter(Boolean);
    const bad = words.filter((w) => !isRole(w));
    if (bad.length) ctx.addIssue({ code: 'custom', message: `REQUIRE_2FA may list only admin, dev, staff and member (not ${bad.join(', ')})` });
    return [...new Set(words.filter(isRole))];
  });

/** `LOG_LEVEL=` (an empty line in an env file) means the default, in any case. */
const emptyIsUnset = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : v);

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  JWT_SECRET: z.string().min(32).optional(),
  DEMO: boolish,
  GATEWAY: z.enum(['simulator', 'cloud-api']).default('simulator'),
  CLOUD_API_BASE_URL: z.string().url().default('https://graph.facebook.com/v21.0'),
  CLOUD_API_APP_SECRET: z.string().min(1).optional(),
  CLOUD_API_VERIFY_TOKEN: z.string().min(1).optional(),
  CLOUD_API_RATE: z.coerce.number().int().min(1).max(1000).default(80),
  PUBLIC_URL: z.string().url('PUBLIC_URL must be a URL such as https://blast.example.com').optional(),
  SECRET_KEY: z.string().min(32, 'SECRET_KEY must be at least 32 characters').optional(),
  SIM_SEED: z.string().default('blast-demo'),
  SIM_LATENCY_MS: z.coerce.number().int().min(0).default(300),
  SIM_FAILURE_RATE: z.coerce.number().min(0).max(1).default(0.05),
  SIM_TOKEN: z.string().min(16, 'SIM_TOKEN must be at least 16 characters').optional(),
  SIM_PUBLIC: boolish,
  METRICS_TOKEN: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional()),
  TELEGRAM_URL: z.string().url().default('https://t.me/blast_support'),
  ALLOWED_ORIGINS: z.string().optional(),
  TRUST_PROXY: trustProxy,
  LOG_LEVEL: z.preprocess(emptyIsUnset, z.enum(LOG_LEVELS).optional()),
  LOG_FORMAT: z.preprocess(emptyIsUnset, z.enum(['json', 'text']).optional()),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
  RESTORE_BATCH: z.coerce.number().int().min(1).max(10_000).default(500),
  RESTORE_PAUSE_MS: z.coerce.number().int().min(0).max(60_000).default(0),
  SIGNUP_LIMIT: z.coerce.number().int().min(1).max(1_000_000).default(30),
  REQUIRE_2FA: require2fa,
  CLIENT_DIST: z.string().optional(),
  NODE_ENV: z.string().optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//i, 'REDIS_URL must be a redis:// URL')
    .optional(),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'REDIS_PREFIX may hold only letters, digits and _ . : - (at most 64)')
    .default('blast:'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//i, 'DATABASE_URL must be a postgres:// URL')
    .optional(),
  ADMIN_EMAIL: z.string().optional(),
  ADMIN_PASSWORD: z.string().optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  jwtSecret: Uint8Array;
  demo: boolean;
  /** Where messages go: the simulator (default, demo, tests), or also the WhatsApp Business Cloud API. */
  gateway: 'simulator' | 'cloud-api';
  /** The Cloud API's settings (used when gateway is 'cloud-api'). */
  cloud: {
    /** Graph API base, e.g. https://graph.facebook.com/v21.0 (tests point it at a local fake). */
    baseUrl: string;
    /** The Meta app's secret: webhook bodies must carry its X-Hub-Signature-256. */
    appSecret: string | null;
    /** Answered to Meta's webhook verification (hub.verify_token). */
    verifyToken: string | null;
    /** Messages per second per business number (Meta's default throughput is 80). */
    ratePerSecond: number;
    /** The console's public address (PUBLIC_URL), from which Graph downloads template media. */
    publicUrl: string | null;
    /** How long one call to Graph may take (default 15 s; tests shorten it). */
    timeoutMs?: number;
  };
  /** The key that encrypts secrets at rest (Cloud API tokens): SECRET_KEY, or DATA_DIR/secret-key (0600). */
  secretKey: Uint8Array;
  sim: { seed: string; latencyMs: number; failureRate: number };
  /** Who may drive the simulated phone without signing in as admin or dev. */
  simAccess: {
    /** A shared secret (header X-Sim-Token) that opens /api/sim/*, for tests and scripts. */
    token: string | null;
    /** SIM_PUBLIC=true: /api/sim/* and /sim need no sign-in (an open demo). */
    public: boolean;
  };
  telegramUrl: string;
  /** METRICS_TOKEN: the bearer token GET /metrics asks for; without it /metrics is a 404. */
  metricsToken: string | null;
  /** Extra origins allowed to open a socket (the app's own origin is always allowed). */
  allowedOrigins: string[];
  /** Express's 'trust proxy': whose X-Forwarded-* headers are believed (default loopback). */
  trustProxy: TrustProxy;
  /** How long a SIGTERM waits for requests in flight before cutting them. */
  shutdownTimeoutMs: number;
  /** Start-up: saved sessions re-opened per page, and the pause between pages (requests are served between them). */
  restore: { batch: number; pauseMs: number };
  /** Accounts one address may create in an hour (SIGNUP_LIMIT; a sign-up event behind one address may need more). */
  signUpLimit: number;
  /** REQUIRE_2FA: the roles that must sign in with a second factor (sent to enrolment at their next sign-in). */
  require2fa: Role[];
  /** The built console's folder; null inside the single executable, which serves its embedded copy. */
  clientDist: string | null;
  /** NODE_ENV=production or DATABASE_URL set: no demo unless DEMO=true, first admin from ADMIN_EMAIL. */
  production: boolean;
  /** PostgreSQL instead of the embedded SQLite file under DATA_DIR. */
  databaseUrl: string | null;
  /** Several nodes: live events and sign-in limits shared through this Redis. */
  redisUrl: string | null;
  /**
   * Prefix of this install's keys and channels in Redis (REDIS_PREFIX, default `blast:`). Publish/subscribe
   * ignores the database number of REDIS_URL, so installs sharing one Redis need different prefixes.
   */
  redisPrefix: string;
  /** JWT_SECRET was given (nodes sharing a database must share it), rather than read from DATA_DIR/jwt-secret. */
  jwtSecretFromEnv: boolean;
  /** ADMIN_EMAIL/ADMIN_PASSWORD: the admin a start creates when the database has none. */
  firstAdmin: { email: string; password: string } | null;
}

/** Reads the JWT secret from DATA_DIR, creating it with mode 0600 on first start (and keeping it 0600). */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  if (fs.existsSync(file)) {
    fs.chmodSync(file, 0o600);
    return fs.readFileSync(file, 'utf8').trim();
  }
  const secret = crypto.randomBytes(48).toString('base64url');
  fs.writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  return secret;
}

/** The at-rest encryption key: SECRET_KEY (hashed to 32 bytes), else DATA_DIR/secret-key created 0600 on first start. */
function loadOrCreateKey(dataDir: string, fromEnv: string | undefined): Uint8Array {
  if (fromEnv) return new Uint8Array(crypto.createHash('sha256').update(fromEnv).digest());
  const file = path.join(dataDir, 'secret-key');
  if (fs.existsSync(file)) {
    fs.chmodSync(file, 0o600);
    return new Uint8Array(Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64'));
  }
  const key = crypto.randomBytes(32);
  fs.writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
  return new Uint8Array(key);
}

/** DATA_DIR holds the database, the secret and uploads: only the server's user may enter it. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
}

/**
 * Runs `fn` on DATA_DIR's files; a file system refusal (a folder of another user, a file in the way, a
 * read-only disk) stops the start with what and where instead of a stack trace.
 */
function inDataDir<T>(dataDir: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw err;
    const who = typeof process.getuid === 'function' ? ` (uid ${process.getuid()})` : '';
    throw new Error(`Invalid configuration: DATA_DIR ${dataDir}: ${(err as Error).message}. It must be a folder this user${who} owns and can write, or one it may create.`);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${detail}`);
  }
  const e = parsed.data;
  const firstAdmin = parseFirstAdmin(e.ADMIN_EMAIL, e.ADMIN_PASSWORD);
  const production = e.NODE_ENV === 'production' || Boolean(e.DATABASE_URL);
  const dataDir = path.resolve(e.DATA_DIR);
  const secret = inDataDir(dataDir, () => {
    ensurePrivateDir(dataDir);
    ensurePrivateDir(path.join(dataDir, 'uploads'));
    return e.JWT_SECRET ?? loadOrCreateSecret(dataDir);
  });
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    jwtSecret: new TextEncoder().encode(secret),
    demo: e.DEMO ?? !production,
    gateway: e.GATEWAY,
    cloud: {
      baseUrl: e.CLOUD_API_BASE_URL.replace(/\/+$/, ''),
      appSecret: e.CLOUD_API_APP_SECRET ?? null,
      verifyToken: e.CLOUD_API_VERIFY_TOKEN ?? null,
      ratePerSecond: e.CLOUD_API_RATE,
      publicUrl: e.PUBLIC_URL ? e.PUBLIC_URL.replace(/\/+$/, '') : null,
    },
    secretKey: inDataDir(dataDir, () => loadOrCreateKey(dataDir, e.SECRET_KEY)),
    sim: { seed: e.SIM_SEED, latencyMs: e.SIM_LATENCY_MS, failureRate: e.SIM_FAILURE_RATE },
    simAccess: { token: e.SIM_TOKEN ?? null, public: e.SIM_PUBLIC ?? false },
    telegramUrl: e.TELEGRAM_URL,
    metricsToken: e.METRICS_TOKEN ?? null,
    allowedOrigins: (e.ALLOWED_ORIGINS ?? '').split(',').map((s) => s.trim().replace(/\/+$/, '')).filter(Boolean),
    trustProxy: e.TRUST_PROXY,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    restore: { batch: e.RESTORE_BATCH, pauseMs: e.RESTORE_PAUSE_MS },
    signUpLimit: e.SIGNUP_LIMIT,
    require2fa: e.REQUIRE_2FA,
    clientDist: e.CLIENT_DIST ? path.resolve(e.CLIENT_DIST) : isEmbedded() ? null : fromRoot('dist', 'client'),
    production,
    databaseUrl: e.DATABASE_URL ?? null,
    redisUrl: e.REDIS_URL ?? null,
    redisPrefix: e.REDIS_PREFIX,
    jwtSecretFromEnv: Boolean(e.JWT_SECRET),
    firstAdmin,
  };
}

/** Warnings a start prints about its configuration (a mistake that works on one node and fails on several). */
export function configNotices(config: Config): string[] {
  const notices: string[] = [];
  if (!config.jwtSecretFromEnv && (config.databaseUrl || config.redisUrl)) {
    notices.push(
      'Warning: JWT_SECRET is not set, so this node signs sessions with its own secret (DATA_DIR/jwt-secret). Every node that shares this database must have the same JWT_SECRET, or a sign-in on one node is refused on the others.',
    );
  }
  return notices;
}

function parseFirstAdmin(email: string | undefined, password: string | undefined): Config['firstAdmin'] {
  if (!email && !password) return null;
  if (!email || !password) throw new Error('Invalid configuration: set both ADMIN_EMAIL and ADMIN_PASSWORD, or neither');
  const parsed = operatorCredentials({ email: 'ADMIN_EMAIL', password: 'ADMIN_PASSWORD' }).safeParse({ email, password });
  if (!parsed.success) throw new Error(`Invalid configuration: ${parsed.error.issues.map((i) => i.message).join('; ')}`);
  return parsed.data;
}

export const TEST_SIM_TOKEN = 'test-sim-token-0123456789';

/** Config for tests: temp-free, fixed secret, no demo data, instant simulator. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    port: 0,
    host: '127.0.0.1',
    dataDir: overrides.dataDir ?? path.resolve('data-test'),
    jwtSecret: new TextEncoder().encode('test-secret-test-secret-test-secret-0123'),
    demo: false,
    gateway: 'simulator',
    cloud: { baseUrl: 'http://127.0.0.1:9/v21.0', appSecret: 'test-app-secret', verifyToken: 'test-verify-token', ratePerSecond: 80, publicUrl: null },
    secretKey: new Uint8Array(32).fill(7),
    sim: { seed: 'test', latencyMs: 0, failureRate: 0 },
    simAccess: { token: TEST_SIM_TOKEN, public: false },
    telegramUrl: 'https://t.me/blast_support',
    metricsToken: null,
    allowedOrigins: [],
    trustProxy: 'loopback',
    shutdownTimeoutMs: 10_000,
    restore: { batch: 500, pauseMs: 0 },
    signUpLimit: 30,
    require2fa: [],
    clientDist: fromRoot('dist', 'client'),
    production: false,
    databaseUrl: null,
    redisUrl: null,
    redisPrefix: 'blast:',
    jwtSecretFromEnv: true,
    firstAdmin: null,
    ...overrides,
  };
}
