import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pino, type DestinationStream, type Logger } from 'pino';
import { pinoHttp, type HttpLogger } from 'pino-http';

/**
 * The process's logger: pino, JSON lines in production (NODE_ENV=production or LOG_FORMAT=json), short
 * readable lines otherwise (LOG_FORMAT=text forces them). LOG_LEVEL sets the level (default info; silent
 * under vitest unless LOG_LEVEL is given).
 */

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = 'json' | 'text';

/** Paths never written, whatever a caller passes: credentials (Cloud API tokens too), cookies, the Authorization header, bodies. */
export const REDACT_PATHS = [
  'password',
  'token',
  'authorization',
  'cookie',
  'body',
  'accessToken',
  'cloudToken',
  'cloud_token',
  '*.password',
  '*.token',
  '*.authorization',
  '*.cookie',
  '*.body',
  '*.accessToken',
  '*.cloudToken',
  '*.cloud_token',
  '*.headers.authorization',
  '*.headers.cookie',
  '*.headers["set-cookie"]',
  '*.headers["x-sim-token"]',
];

/** A failed query (Drizzle's error): its message ends with the query's parameters. */
const isQueryError = (e: unknown): e is Error & { query: string; params: unknown } => e instanceof Error && 'query' in e && 'params' in e;

/**
 * pino's error serializer, without the parameters of a failed query: they may hold a password hash, a
 * token's hash, bank details or a member's text. The query, the database's reason and the stack stay.
 */
export function serializeErr(err: unknown): unknown {
  const out = pino.stdSerializers.err(err as Error) as unknown;
  if (typeof out !== 'object' || out === null) return out;
  const o = out as { message?: string; stack?: string; params?: unknown };
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth += 1) {
    if (!isQueryError(e)) continue;
    const safe = `Failed query: ${e.query}`;
    if (typeof o.message === 'string') o.message = o.message.split(e.message).join(safe);
    if (typeof o.stack === 'string') o.stack = o.stack.split(e.message).join(safe);
    if (e === err) delete o.params;
  }
  return out;
}

export interface LoggerOptions {
  level?: string;
  format?: LogFormat;
  /** Where lines go (tests capture them); defaults to stdout. */
  destination?: DestinationStream;
}

/**
 * The level and format the environment asks for; an unknown LOG_LEVEL falls back to info (config reports it).
 * Under vitest (VITEST set) the default is silent, except in a server process started by `main.ts`
 * (`entry`): tests that spawn one read its output.
 */
export function logSettings(env: NodeJS.ProcessEnv = process.env, entry = false): { level: LogLevel; format: LogFormat } {
  const asked = env.LOG_LEVEL?.trim().toLowerCase();
  const known = asked !== undefined && (LOG_LEVELS as readonly string[]).includes(asked);
  const level: LogLevel = known ? (asked as LogLevel) : env.VITEST && !asked && !entry ? 'silent' : 'info';
  const fmt = env.LOG_FORMAT?.trim().toLowerCase();
  const format: LogFormat = fmt === 'json' || fmt === 'text' ? fmt : env.NODE_ENV === 'production' ? 'json' : 'text';
  return { level, format };
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const settings = logSettings(process.env, serverEntry);
  const level = options.level ?? settings.level;
  const format = options.format ?? settings.format;
  const destination = options.destination
    ? format === 'json'
      ? options.destination
      : readable(options.destination)
    : format === 'json'
      ? pino.destination({ dest: 1, sync: true })
      : readableStdout();
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { err: serializeErr },
    },
    destination,
  );
}

const SKIP = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err']);

/** One JSON line from pino → `HH:MM:SS.mmm LEVEL msg key=value …`, the error's stack on the lines after. */
export function formatReadable(line: string): string {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const time = typeof o.time === 'string' ? o.time.slice(11, 23) : '';
  const level = String(o.level ?? '').toUpperCase().padEnd(5);
  const fields = Object.entries(o)
    .filter(([k]) => !SKIP.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  let out = [time, level, String(o.msg ?? ''), ...fields].filter(Boolean).join(' ');
  const err = o.err as { stack?: string; message?: string } | undefined;
  if (err) out += `\n  ${(err.stack ?? err.message ?? JSON.stringify(err)).split('\n').join('\n  ')}`;
  return `${out}\n`;
}

function readable(dest: DestinationStream): DestinationStream {
  return { write: (line: string) => dest.write(formatReadable(line)) };
}

/** Readable lines on stdout, errors and worse on stderr (as console.log/console.error did). */
function readableStdout(): DestinationStream {
  return {
    write(line: string) {
      const text = formatReadable(line);
      if (/"level":"(error|fatal)"/.test(line)) process.stderr.write(text);
      else process.stdout.write(text);
    },
  };
}

let processLogger: Logger | null = null;
let serverEntry = false;

/** Called first thing by `main.ts`: this process is the server, whose log is its output (see logSettings). */
export function markServerProcess(): void {
  serverEntry = true;
  processLogger = null;
}

/** The one logger of this process, made on first use. */
export function getLogger(): Logger {
  processLogger ??= createLogger();
  return processLogger;
}

/** The context's `log(msg, err?, fields?)` over a pino logger: with `err`, an error line carrying it as `err`. */
export function logFunction(logger: Logger) {
  return (msg: string, err?: unknown, fields: Record<string, unknown> = {}): void => {
    if (err === undefined) logger.info(fields, msg);
    else logger.error({ ...fields, err }, msg);
  };
}

const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** An incoming X-Request-Id when it is a sane token (≤ 64 of [A-Za-z0-9._-]), else a new UUID. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && SANE_REQUEST_ID.test(value) ? value : crypto.randomUUID();
}

/** The request's path, without its query string (which may carry search terms or tokens). */
export function pathOf(req: IncomingMessage): string {
  const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '';
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/**
 * Express middleware: every request gets an id (echoed in X-Request-Id, bound as `reqId` on `req.log`) and,
 * when its response ends, one line `{ reqId, method, url, status, ms, ip, userId }`: info, warn for 4xx,
 * error for 5xx, debug for a successful health check or metrics scrape (polled all day). `ip` is the client's
 * address as TRUST_PROXY resolves it (Express's req.ip), `userId` the signed-in user's id when the call
 * needed a sign-in. Headers and bodies are never logged.
 */
export function requestLogger(logger: Logger = getLogger()): HttpLogger {
  const line = (req: IncomingMessage, res: ServerResponse, ms: number) => {
    const r = req as IncomingMessage & { ip?: string; user?: { id?: unknown } };
    return {
      method: req.method,
      url: pathOf(req),
      status: res.statusCode,
      ms,
      ip: r.ip ?? req.socket?.remoteAddress ?? null,
      userId: typeof r.user?.id === 'number' ? r.user.id : null,
    };
  };
  return pinoHttp({
    logger,
    quietReqLogger: true,
    quietResLogger: true,
    genReqId: (req, res) => {
      const id = requestIdFrom(req.headers['x-request-id']);
      res.setHeader('X-Request-Id', id);
      return id;
    },
    customLogLevel: (req, res, err) => {
      if (err || res.statusCode >= 500) return 'error';
      if (res.statusCode >= 400) return 'warn';
      const path = pathOf(req);
      return path === '/api/health' || path === '/api/health/ready' || path === '/metrics' ? 'debug' : 'info';
    },
    customSuccessMessage: (req, res) => (res.writableEnded ? 'request completed' : 'request aborted'),
    customErrorMessage: () => 'request failed',
    customSuccessObject: (req, res, val: { responseTime: number }) => line(req, res, val.responseTime),
    customErrorObject: (req, res, _err, val: { responseTime: number }) => line(req, res, val.responseTime),
  });
}
