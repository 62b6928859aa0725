import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';

/**
 * A local stand-in for Meta's Graph API, in the request and answer shapes the WhatsApp Business
 * Cloud API documents: phone number fields, template sends, and its error envelope
 * `{ error: { message, type, code, error_subcode?, fbtrace_id } }`. Every send is recorded, and
 * outcomes are programmable per recipient or per business number.
 */

export interface FakeNumber {
  phoneNumberId: string;
  token: string;
  display_phone_number: string;
  verified_name: string;
  quality_rating?: string;
  messaging_limit_tier?: string;
  /** The WhatsApp Business Account the number is under; left out, the number is listed under any WABA ID asked for. */
  wabaId?: string;
}

/** A message template under a WABA, one language of it, in the fields Graph's message_templates lists. */
export interface FakeTemplate {
  wabaId: string;
  name: string;
  language: string;
  status: 'APPROVED' | 'PENDING' | 'REJECTED' | 'PAUSED' | 'DISABLED';
  /** The body's text, with `{{1}}`… (or named `{{first_name}}`) placeholders. */
  body: string;
  parameter_format?: 'POSITIONAL' | 'NAMED';
}

/** How the message_templates listing of a WABA answers when it does not list: an error, or no answer. */
export type TemplateListFailure = 'server_error' | 'token_expired' | 'hang';

/** What a send answers: accepted, or one of Cloud API's documented errors. */
export type Outcome =
  | 'ok'
  | 'not_on_whatsapp' // 131026 Message undeliverable
  | 'rate_limit' // 130429 Rate limit hit (HTTP 429)
  | 'pair_rate_limit' // 131056 (Business account, consumer account) pair rate limit hit (HTTP 400)
  | 'reengagement' // 131047 Re-engagement message
  | 'token_expired' // 190 Error validating access token (HTTP 401)
  | 'server_error' // HTTP 500
  | 'template_paused' // 132015 Template is paused (HTTP 400)
  | 'template_params' // 132000 Number of parameters does not match the expected number of params (HTTP 400)
  | 'invalid_parameter' // 100 Invalid parameter (HTTP 400)
  | 'param_format' // 132012 Parameter format does not match (HTTP 400): one recipient's filled-in value
  | 'account_locked' // 131031 Business Account locked (HTTP 400)
  | 'spam_limit'; // 131048 Spam rate limit hit (HTTP 400)

export interface Rule {
  to?: string;
  phoneNumberId?: string;
  outcome: Outcome;
  /** How many sends the rule answers before it stops applying (unlimited when left out). */
  times?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  phoneNumberId: string;
  authorization: string | undefined;
  body: Record<string, unknown> | null;
  /** The query string's parameters of a GET. */
  query?: Record<string, string>;
  at: number;
  /** What the fake answered a send with. */
  outcome?: Outcome;
  messageId?: string;
}

const ERRORS: Record<Exclude<Outcome, 'ok'>, { status: number; code: number; subcode?: number; type: string; message: string }> = {
  not_on_whatsapp: { status: 400, code: 131026, type: 'OAuthException', message: 'Message undeliverable' },
  rate_limit: { status: 429, code: 130429, type: 'OAuthException', message: 'Rate limit hit' },
  pair_rate_limit: { status: 400, code: 131056, type: 'OAuthException', message: '(Business Account, Consumer Account) pair rate limit hit' },
  reengagement: { status: 400, code: 131047, type: 'OAuthException', message: 'Re-engagement message' },
  token_expired: { status: 401, code: 190, subcode: 463, type: 'OAuthException', message: 'Error validating access token: Session has expired.' },
  server_error: { status: 500, code: 2, type: 'OAuthException', message: 'An unexpected error has occurred. Please retry your request later.' },
  template_paused: { status: 400, code: 132015, type: 'OAuthException', message: 'Template is Paused' },
  template_params: { status: 400, code: 132000, type: 'OAuthException', message: 'Number of parameters does not match the expected number of params' },
  invalid_parameter: { status: 400, code: 100, type: 'OAuthException', message: '(#100) Invalid parameter' },
  param_format: { status: 400, code: 132012, type: 'OAuthException', message: 'Parameter format does not match format in the created template' },
  account_locked: { status: 400, code: 131031, type: 'OAuthException', message: 'Business Account locked' },
  spam_limit: { status: 400, code: 131048, type: 'OAuthException', message: 'Spam rate limit hit' },
};

const fbtrace = () => crypto.randomBytes(8).toString('base64url');

function errorBody(e: { code: number; subcode?: number; type: string; message: string }) {
  return { error: { message: e.message, type: e.type, code: e.code, ...(e.subcode ? { error_subcode: e.subcode } : {}), fbtrace_id: fbtrace() } };
}

/** Graph's answer for an id that does not exist or that the token may not read. */
const unknownObject = (id: string) =>
  errorBody({
    code: 100,
    subcode: 33,
    type: 'GraphMethodException',
    message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
  });

export class FakeGraph {
  readonly numbers = new Map<string, FakeNumber>();
  readonly requests: RecordedRequest[] = [];
  rules: Rule[] = [];
  readonly templates: FakeTemplate[] = [];
  /** Per WABA ID: the listing of its templates fails this way. */
  readonly templateFailures = new Map<string, TemplateListFailure>();
  private readonly hanging = new Set<() => void>();
  /**
   * Runs after a send is accepted and before it is answered, with the message id: Meta's status webhook
   * travels apart from the send's answer and can reach the app first.
   */
  beforeAnswer: ((send: { phoneNumberId: string; to: string; messageId: string }) => Promise<void>) | null = null;
  private seq = 0;
  private server: Server | null = null;
  url = '';

  addNumber(n: FakeNumber): FakeNumber {
    this.numbers.set(n.phoneNumberId, { quality_rating: 'GREEN', messaging_limit_tier: 'TIER_1K', ...n });
    return n;
  }

  /** Adds a rule; the first rule matching a send (and not used up) decides its answer. */
  program(rule: Rule): void {
    this.rules.push({ ...rule });
  }

  addTemplate(t: FakeTemplate): FakeTemplate {
    this.templates.push(t);
    return t;
  }

  /** The template listings asked for (GET …/message_templates), in order. */
  templateLookups(wabaId?: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/message_templates') && (!wabaId || r.phoneNumberId === wabaId));
  }

  /** The sends made (POST …/messages), in order. */
  sends(phoneNumberId?: string): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/messages') && (!phoneNumberId || r.phoneNumberId === phoneNumberId));
  }

  private outcomeFor(phoneNumberId: string, to: string): Outcome {
    for (const rule of this.rules) {
      if (rule.times !== undefined && rule.times <= 0) continue;
      if (rule.to !== undefined && rule.to !== to) continue;
      if (rule.phoneNumberId !== undefined && rule.phoneNumberId !== phoneNumberId) continue;
      if (rule.times !== undefined) rule.times -= 1;
      return rule.outcome;
    }
    return 'ok';
  }

  private app() {
    const app = express();
    app.use(express.json());
    const authorised = (req: express.Request, n: FakeNumber | undefined) => !!n && req.headers.authorization === `Bearer ${n.token}`;

    // The numbers of a WhatsApp Business Account (GET /{waba-id}/phone_numbers), for a token of one of them.
    app.get('/:version/:waba/phone_numbers', (req, res) => {
      const waba = String(req.params.waba);
      this.requests.push({ method: 'GET', path: req.path, phoneNumberId: waba, authorization: req.headers.authorization, body: null, at: Date.now() });
      if (![...this.numbers.values()].some((x) => req.headers.authorization === `Bearer ${x.token}`)) {
        res.status(401).json(errorBody({ code: 190, type: 'OAuthException', message: 'Invalid OAuth access token - Cannot parse access token' }));
        return;
      }
      // A WABA exists when a number is under it (a number without wabaId is under every one).
      if (![...this.numbers.values()].some((x) => x.wabaId === undefined || x.wabaId === waba)) {
        res.status(400).json(unknownObject(waba));
        return;
      }
      const data = [...this.numbers.values()]
        .filter((x) => x.wabaId === undefined || x.wabaId === waba)
        .map((x) => ({ id: x.phoneNumberId, display_phone_number: x.display_phone_number, verified_name: x.verified_name }));
      res.json({ data, paging: { cursors: { before: 'QVFIU', after: 'QVFIU' } } });
    });

    // The templates of a WhatsApp Business Account (GET /{waba-id}/message_templates), for a token of one of
    // its numbers. Like Graph, `name` matches names that contain it.
    app.get('/:version/:waba/message_templates', (req, res) => {
      const waba = String(req.params.waba);
      const query = Object.fromEntries(Object.entries(req.query).map(([k, v]) => [k, String(v)]));
      this.requests.push({ method: 'GET', path: req.path, phoneNumberId: waba, authorization: req.headers.authorization, body: null, query, at: Date.now() });
      const failure = this.templateFailures.get(waba);
      if (failure === 'hang') {
        // No answer until the fake closes: the caller's timeout decides.
        this.hanging.add(() => res.destroy());
        return;
      }
      const underWaba = [...this.numbers.values()].filter((x) => x.wabaId === undefined || x.wabaId === waba);
      if (failure === 'token_expired' || !underWaba.some((x) => req.headers.authorization === `Bearer ${x.token}`)) {
        res.status(401).json(errorBody(ERRORS.token_expired));
        return;
      }
      if (failure === 'server_error') {
        res.status(500).json(errorBody(ERRORS.server_error));
        return;
      }
      const name = typeof req.query.name === 'string' ? req.query.name : '';
      const data = this.templates
        .filter((x) => x.wabaId === waba && x.name.includes(name))
        .map((x, i) => ({
          id: String(900000 + i),
          name: x.name,
          language: x.language,
          status: x.status,
          category: 'MARKETING',
          parameter_format: x.parameter_format ?? 'POSITIONAL',
          components: [{ type: 'BODY', text: x.body }, { type: 'FOOTER', text: 'Balas STOP untuk berhenti' }],
        }));
      res.json({ data, paging: { cursors: { before: 'QVFIU', after: 'QVFIU' } } });
    });

    app.get('/:version/:id', (req, res) => {
      const id = String(req.params.id);
      this.requests.push({ method: 'GET', path: req.path, phoneNumberId: id, authorization: req.headers.authorization, body: null, at: Date.now() });
      const n = this.numbers.get(id);
      const anyToken = [...this.numbers.values()].some((x) => req.headers.authorization === `Bearer ${x.token}`);
      if (!n && anyToken) {
        res.status(400).json(unknownObject(id));
        return;
      }
      if (!authorised(req, n)) {
        res.status(401).json(errorBody({ code: 190, type: 'OAuthException', message: 'Invalid OAuth access token - Cannot parse access token' }));
        return;
      }
      const fields = String(req.query.fields ?? 'id').split(',');
      const all: Record<string, unknown> = { ...n!, id };
      const out: Record<string, unknown> = { id };
      for (const f of fields) if (f in all && f !== 'token' && f !== 'phoneNumberId') out[f] = all[f];
      res.json(out);
    });

    app.post('/:version/:id/messages', async (req, res) => {
      const id = String(req.params.id);
      const body = (req.body ?? null) as Record<string, unknown> | null;
      const record: RecordedRequest = { method: 'POST', path: req.path, phoneNumberId: id, authorization: req.headers.authorization, body, at: Date.now() };
      this.requests.push(record);
      const n = this.numbers.get(id);
      if (!authorised(req, n)) {
        record.outcome = 'token_expired';
        res.status(401).json(errorBody({ code: 190, type: 'OAuthException', message: 'Invalid OAuth access token - Cannot parse access token' }));
        return;
      }
      const to = typeof body?.to === 'string' ? body.to : '';
      if (body?.messaging_product !== 'whatsapp' || !to) {
        res.status(400).json(errorBody({ code: 100, type: 'OAuthException', message: '(#100) Invalid parameter' }));
        return;
      }
      const outcome = this.outcomeFor(id, to);
      record.outcome = outcome;
      if (outcome !== 'ok') {
        const e = ERRORS[outcome];
        res.status(e.status).json(errorBody(e));
        return;
      }
      this.seq += 1;
      const messageId = `wamid.HBgN${to}${String(this.seq).padStart(6, '0')}`;
      record.messageId = messageId;
      if (this.beforeAnswer) await this.beforeAnswer({ phoneNumberId: id, to, messageId });
      res.json({ messaging_product: 'whatsapp', contacts: [{ input: to, wa_id: to }], messages: [{ id: messageId, message_status: 'accepted' }] });
    });
    return app;
  }

  /** Listens on a free port; `url` is the base URL with the version (…/v21.0). */
  async start(): Promise<string> {
    const server = this.app().listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    this.server = server;
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v21.0`;
    return this.url;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const end of this.hanging) end();
    this.hanging.clear();
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
