/**
 * Calls to Meta's Graph API. Answers are reduced to what the gateway decides on: the JSON body, or
 * the HTTP status with Graph's error code and subcode. The access token travels only in the
 * Authorization header and is never part of an answer, an error or a log line.
 */

export type GraphAnswer =
  | { ok: true; body: Record<string, unknown> }
  | { ok: false; kind: 'graph'; status: number; code: number | null; subcode: number | null }
  | { ok: false; kind: 'network'; timeout: boolean };

export interface GraphRequest {
  method: 'GET' | 'POST';
  /** Path under the base URL, e.g. `/123/messages`. */
  path: string;
  token: string;
  body?: unknown;
  timeoutMs: number;
  /** Ends the call early (a deadline shared by several calls); answered like a timeout. */
  signal?: AbortSignal;
}

export async function graphCall(baseUrl: string, req: GraphRequest): Promise<GraphAnswer> {
  let res: Response;
  try {
    res = await fetch(`${baseUrl}${req.path}`, {
      method: req.method,
      headers: { Authorization: `Bearer ${req.token}`, ...(req.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: req.body === undefined ? undefined : JSON.stringify(req.body),
      signal: req.signal ? AbortSignal.any([AbortSignal.timeout(req.timeoutMs), req.signal]) : AbortSignal.timeout(req.timeoutMs),
    });
  } catch (err) {
    const name = err instanceof Error ? err.name : '';
    return { ok: false, kind: 'network', timeout: name === 'TimeoutError' || name === 'AbortError' };
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  if (res.ok && body && typeof body === 'object') return { ok: true, body: body as Record<string, unknown> };
  const error = body && typeof body === 'object' ? (body as { error?: { code?: unknown; error_subcode?: unknown } }).error : undefined;
  return {
    ok: false,
    kind: 'graph',
    status: res.status,
    code: typeof error?.code === 'number' ? error.code : null,
    subcode: typeof error?.error_subcode === 'number' ? error.error_subcode : null,
  };
}

/** A short description of a failed answer for logs (status and Graph's codes, nothing else). */
export function describeFailure(a: Exclude<GraphAnswer, { ok: true }>): string {
  if (a.kind === 'network') return a.timeout ? 'timeout' : 'network error';
  return `HTTP ${a.status}${a.code === null ? '' : ` code ${a.code}`}${a.subcode === null ? '' : `/${a.subcode}`}`;
}
