import { describeFailure, graphCall } from './graph';

/** One language of an approved-or-not WhatsApp template, as Graph lists it under its WABA. */
export interface MetaTemplate {
  name: string;
  language: string;
  /** APPROVED, PENDING, REJECTED, PAUSED, DISABLED… as Meta writes it. */
  status: string;
  /** How many different placeholders (`{{1}}`, `{{2}}`… or named ones) its body has. */
  bodyParams: number;
  /** NAMED templates take `parameter_name`d parameters; the console fills positional ones. */
  named: boolean;
}

export type TemplateLookup = { ok: true; templates: MetaTemplate[] } | { ok: false; reason: 'token' | 'unavailable' };

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** The number of distinct placeholders in a body text. */
export function bodyParamCount(text: string): number {
  return new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1])).size;
}

function templateOf(raw: unknown): MetaTemplate | null {
  if (!raw || typeof raw !== 'object') return null;
  const t = raw as { name?: unknown; language?: unknown; status?: unknown; components?: unknown; parameter_format?: unknown };
  if (typeof t.name !== 'string' || typeof t.language !== 'string') return null;
  const components = Array.isArray(t.components) ? (t.components as Array<{ type?: unknown; text?: unknown }>) : [];
  const body = components.find((c) => typeof c?.type === 'string' && c.type.toUpperCase() === 'BODY');
  return {
    name: t.name,
    language: t.language,
    status: typeof t.status === 'string' ? t.status.toUpperCase() : 'UNKNOWN',
    bodyParams: typeof body?.text === 'string' ? bodyParamCount(body.text) : 0,
    named: typeof t.parameter_format === 'string' && t.parameter_format.toUpperCase() === 'NAMED',
  };
}

/**
 * The templates of a WhatsApp Business Account with exactly this name, every language
 * (GET /{waba-id}/message_templates?name=…): one request. Graph's name filter also matches names that
 * contain it, so the answer is filtered here; the first page (100 entries) is read, which holds every
 * language of a name (a WABA has at most 250 names in all).
 */
export async function lookupTemplates(
  baseUrl: string,
  req: { token: string; wabaId: string; name: string; timeoutMs: number; signal?: AbortSignal },
  log?: (msg: string) => void,
): Promise<TemplateLookup> {
  const answer = await graphCall(baseUrl, {
    method: 'GET',
    path: `/${encodeURIComponent(req.wabaId)}/message_templates?name=${encodeURIComponent(req.name)}&fields=name,language,status,components,parameter_format&limit=100`,
    token: req.token,
    timeoutMs: req.timeoutMs,
    signal: req.signal,
  });
  if (answer.ok) {
    const data = Array.isArray(answer.body.data) ? answer.body.data : [];
    return { ok: true, templates: data.map(templateOf).filter((t): t is MetaTemplate => t !== null && t.name === req.name) };
  }
  if (answer.kind === 'graph' && (answer.status === 401 || answer.code === 190)) return { ok: false, reason: 'token' };
  log?.(`Graph did not answer the template check of WABA ${req.wabaId}: ${describeFailure(answer)}`);
  return { ok: false, reason: 'unavailable' };
}
