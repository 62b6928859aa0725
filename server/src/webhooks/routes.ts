import express from 'express';
import type { Api } from '../lib/api';
import type { AppContext } from '../context';
import { HttpError } from '../lib/errors';
import { handleWebhook, resumeHeldStatuses } from './service';
import { signatureMatches, verificationChallenge } from './signature';

/** Paths whose body the app's JSON parser leaves alone: their signature covers the raw bytes. */
export const WEBHOOK_PATHS = new Set(['/api/webhooks/whatsapp']);

/**
 * Meta's webhook payloads can be up to 3 MB; a larger limit would only let unsigned bytes in. A body Meta
 * sends that is refused here is never applied (Meta retries it for days), so the limit is Meta's own.
 */
export const WEBHOOK_BODY_LIMIT = 3 * 1024 * 1024;
const rawBody = express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT });

export function registerWebhookRoutes(api: Api, ctx: AppContext): void {
  resumeHeldStatuses(ctx);

  /** Meta's subscription check: echo hub.challenge when the verify token is ours. */
  api.get('/webhooks/whatsapp', (req, res) => {
    const challenge = verificationChallenge(ctx.config.cloud.verifyToken, req.query as Record<string, unknown>);
    if (challenge === null) throw new HttpError(403, 'Forbidden');
    res.status(200).type('text/plain').send(challenge);
  });

  /**
   * Statuses and inbound messages, signed with the app secret. Applied before answering: each step is
   * idempotent, so when something fails the non-200 makes Meta send the body again.
   */
  api.post('/webhooks/whatsapp', rawBody, async (req, res) => {
    const secret = ctx.config.cloud.appSecret;
    if (!secret) throw new HttpError(503, 'Webhooks are not configured');
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (!signatureMatches(secret, body, req.get('x-hub-signature-256'))) throw new HttpError(401, 'Invalid signature');
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      throw new HttpError(400, 'Invalid JSON body');
    }
    await handleWebhook(ctx, parsed);
    res.status(200).json({ ok: true });
  });
}
