import { and, eq, isNotNull } from 'drizzle-orm';
import { ERROR_MESSAGES } from '../../../common/errors';
import type { WaTemplateCheck, WaTemplateWarning } from '../../../common/wa-template-check';
import type { AppContext } from '../context';
import { whatsapps } from '../db/schema';
import { cloudGatewayOf } from '../gateway';
import type { TemplateLookup } from '../gateway/cloud/templates';
import { ensureSessionOfRow } from '../whatsapp/events';
import type { WaTemplate } from './cloud';

type CheckCode = 'wa_check_not_found' | 'wa_check_language' | 'wa_check_status' | 'wa_check_params' | 'wa_check_named' | 'wa_check_token' | 'wa_check_unavailable';

/** The catalogue's text of `code` with its variable parts filled in. */
function warning(code: CheckCode, wabaId: string, params: Record<string, string>): WaTemplateWarning {
  const all: Record<string, string> = { ...params, waba: wabaId };
  const msg = ERROR_MESSAGES[code][0].replace(/\{(\w+)\}/g, (_, name: string) => all[name] ?? '');
  return { code, msg, params: all, wabaId };
}

/** What one WABA's answer means for the mapping: nothing when it will send. */
function judge(wa: WaTemplate & { waTemplateName: string }, wabaId: string, lookup: TemplateLookup): WaTemplateWarning | null {
  if (!lookup.ok) return warning(lookup.reason === 'token' ? 'wa_check_token' : 'wa_check_unavailable', wabaId, {});
  const template = wa.waTemplateName;
  const language = wa.waTemplateLanguage ?? '';
  if (lookup.templates.length === 0) return warning('wa_check_not_found', wabaId, { template });
  const found = lookup.templates.find((t) => t.language === language);
  if (!found) return warning('wa_check_language', wabaId, { template, language, languages: [...new Set(lookup.templates.map((t) => t.language))].sort().join(', ') });
  if (found.status !== 'APPROVED') return warning('wa_check_status', wabaId, { template, language, status: found.status });
  if (found.named && found.bodyParams > 0) return warning('wa_check_named', wabaId, { template, language });
  if (found.bodyParams !== wa.waTemplateParams.length) {
    return warning('wa_check_params', wabaId, { template, language, expected: String(found.bodyParams), given: String(wa.waTemplateParams.length) });
  }
  return null;
}

/** WABAs asked at the same time; the rest wait for a free slot, all within one deadline. */
const PARALLEL = 8;

/**
 * Asks Meta about a saved mapping: for each WABA of the linked Cloud API numbers, one request for the
 * template's name with the token of one of its connected numbers. Every request shares one deadline (the
 * gateway's timeout), so a save waits at most that long whatever the number of WABAs; a WABA not asked
 * or not answered by then, like one whose numbers are all logged out, is reported as not checked. Answers
 * null when there is nothing to check (no name, or no linked Cloud API number).
 */
export async function checkWaTemplate(ctx: AppContext, wa: WaTemplate): Promise<WaTemplateCheck | null> {
  const cloud = cloudGatewayOf(ctx.gateway);
  const name = wa.waTemplateName;
  if (!cloud || !name) return null;
  const rows = await ctx.db
    .select()
    .from(whatsapps)
    .where(and(eq(whatsapps.gateway, 'cloud-api'), isNotNull(whatsapps.cloudWabaId)))
    .orderBy(whatsapps.id);
  if (rows.length === 0) return null;

  // Per WABA, the first number whose session is connected (re-opened in this process if it was not).
  const senders = new Map<string, string | null>();
  for (const row of rows) {
    const waba = row.cloudWabaId!;
    if (senders.get(waba)) continue;
    ensureSessionOfRow(ctx, row);
    senders.set(waba, cloud.state(row.deviceId) === 'connected' ? row.deviceId : null);
  }

  const wabas = [...senders.keys()];
  const deadline = AbortSignal.timeout(cloud.callTimeoutMs);
  const lookups = new Map<string, TemplateLookup>();
  const queue = [...senders.entries()];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [waba, deviceId] = next;
      if (!deviceId) lookups.set(waba, { ok: false, reason: 'token' });
      else if (deadline.aborted) lookups.set(waba, { ok: false, reason: 'unavailable' });
      else lookups.set(waba, await cloud.templatesOf(deviceId, waba, name, deadline));
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, queue.length) }, worker));

  const mapping = { ...wa, waTemplateName: name };
  const warnings = wabas.map((waba) => judge(mapping, waba, lookups.get(waba) ?? { ok: false, reason: 'unavailable' })).filter((w): w is WaTemplateWarning => w !== null);
  return { wabas, warnings };
}
