import { loadLocaleAreas } from '../providers/i18n';
import { getToken } from './session';

/** A failed call, in Refine's HttpError shape plus the server's `code`. */
export class ApiError extends Error {
  constructor(
    message: string,
    public statusCode: number,
    public errors?: Record<string, string>,
    /** The spec's number (withdraw 1, blast 2/3) or a stable key of common/errors.ts. */
    public code?: number | string,
  ) {
    super(message);
  }
}

/**
 * Whether a failed read is asked again (TanStack Query's `retry`): a refusal (4xx: not found, not
 * allowed, bad input) is the server's answer and shows at once; a network failure (status 0) or a
 * server error is tried up to three times.
 */
export function retryRead(failures: number, error: unknown): boolean {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) return false;
  return failures < 3;
}

export const API_BASE = '/api';

/** Called when any call answers 401, so the session can end. */
let onUnauthorized: (() => void) | null = null;
export function setUnauthorizedHandler(fn: (() => void) | null): void {
  onUnauthorized = fn;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** Fallback message when the server gives none. */
  fallback?: string;
  signal?: AbortSignal;
  /** Calls that need no token (login, register, validate). */
  anonymous?: boolean;
  /** Extra request headers (an Idempotency-Key). */
  headers?: Record<string, string>;
}

export function serverMessage(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    for (const key of ['msg', 'message', 'error']) if (typeof b[key] === 'string' && b[key]) return b[key] as string;
  }
  return undefined;
}

/**
 * The error catalogue (common/errors.ts) and the errors' texts download with the first error answer,
 * so /signin and the list screens do not carry them; offline, the server's own words are shown.
 */
export async function errorFromAnswer(parsed: unknown, status: number, fallback: string): Promise<ApiError> {
  const b = (parsed && typeof parsed === 'object' ? parsed : {}) as { errors?: Record<string, string>; code?: number | string };
  try {
    const [{ errorFromBody }] = await Promise.all([import('./serverError'), loadLocaleAreas(['errors'])]);
    return errorFromBody(parsed, status, fallback);
  } catch {
    return new ApiError(serverMessage(parsed) ?? fallback, status, b.errors, b.code);
  }
}

/**
 * A call to the API. Without a token the call is skipped with 'Authorization token is missing'.
 * Non-2xx answers throw ApiError with the server's msg (or message/error), else the fallback.
 */
export async function api<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { ...options.headers };
  if (!options.anonymous) {
    const token = getToken();
    if (!token) throw new ApiError('Authorization token is missing', 401);
    headers.Authorization = `Bearer ${token}`;
  }
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let res: Response;
  try {
    res = await fetch(`${API_BASE}${path}`, { method: options.method ?? 'GET', headers, body, signal: options.signal });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    const network = options.method && options.method !== 'GET' ? 'Network error. Please try again.' : 'Internal server error';
    throw new ApiError(network, 0);
  }
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    if (res.status === 401 && !options.anonymous) onUnauthorized?.();
    throw await errorFromAnswer(parsed, res.status, options.fallback ?? 'Internal server error');
  }
  return parsed as T;
}

/** Builds `?a=1&b=x`, leaving out empty values. */
export function query(params: Record<string, string | number | boolean | null | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

export function errorText(err: unknown, fallback = 'Internal server error'): string {
  return err instanceof Error && err.message ? err.message : fallback;
}
