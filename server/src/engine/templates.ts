import type { MessageButton, OutgoingMessage } from '../gateway/types';
import type { RawTemplate } from './store';

const BUTTON_TYPES = new Set<MessageButton['type']>(['reply_button', 'call_button', 'url_button', 'stop_button']);

/** The prefix of the id a stop button carries on the wire; a press with it opts the number out. */
export const STOP_BUTTON_PREFIX = 'stop_button:';

/**
 * Picks the active template with the lowest count_use (ties: lowest id), counting sends that are
 * in flight but not recorded yet, so one tick's many picks spread over the templates.
 */
export function pickTemplate(templates: RawTemplate[], inFlight: Map<number, number>): RawTemplate | null {
  let best: RawTemplate | null = null;
  let bestUse = Infinity;
  for (const t of templates) {
    const use = t.count_use + (inFlight.get(t.id) ?? 0);
    if (use < bestUse || (use === bestUse && best !== null && t.id < best.id)) {
      best = t;
      bestUse = use;
    }
  }
  return best;
}

/** Replaces `{name}` and `{phoneNumber}` (every occurrence). */
export function renderText(text: string, target: { name: string; number: string }): string {
  return text.replaceAll('{name}', target.name).replaceAll('{phoneNumber}', target.number);
}

function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/p>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

interface StoredButton {
  id?: unknown;
  title?: unknown;
  url?: unknown;
  type?: unknown;
}

const parsedButtons = new Map<string, MessageButton[]>();

/**
 * A template's buttons as the gateway takes them. Each id names its type and template
 * (`{type}:{templateId}:{id}`), so an inbound press says by itself whether it was a stop button.
 */
export function templateButtons(template: Pick<RawTemplate, 'id' | 'button'>): MessageButton[] {
  const key = `${template.id}|${template.button}`;
  const cached = parsedButtons.get(key);
  if (cached) return cached;
  let list: unknown;
  try {
    list = JSON.parse(template.button);
  } catch {
    list = [];
  }
  const out: MessageButton[] = [];
  if (Array.isArray(list)) {
    list.forEach((raw: StoredButton, i) => {
      const type = typeof raw?.type === 'string' && BUTTON_TYPES.has(raw.type as MessageButton['type']) ? (raw.type as MessageButton['type']) : null;
      const title = typeof raw?.title === 'string' ? raw.title.trim() : '';
      if (!type || !title) return;
      const id = typeof raw.id === 'string' || typeof raw.id === 'number' ? String(raw.id) : String(i + 1);
      out.push({ id: `${type}:${template.id}:${id}`, title, type, url: typeof raw.url === 'string' && raw.url ? raw.url : null });
    });
  }
  if (parsedButtons.size > 1000) parsedButtons.clear();
  parsedButtons.set(key, out);
  return out;
}

/** Whether a template maps to an approved Cloud API template (what a Cloud API account may send). */
export function isMapped(template: Pick<RawTemplate, 'wa_template_name'>): boolean {
  return !!template.wa_template_name?.trim();
}

const parsedParams = new Map<string, string[]>();

/** The stored body parameter list ('{name}', '{phoneNumber}' … in order); anything unreadable is none. */
function templateParams(raw: string): string[] {
  const cached = parsedParams.get(raw);
  if (cached) return cached;
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch {
    list = [];
  }
  const out = Array.isArray(list) ? list.map((p) => (typeof p === 'string' ? p : '')) : [];
  if (parsedParams.size > 1000) parsedParams.clear();
  parsedParams.set(raw, out);
  return out;
}

/**
 * The message a target receives from a template: WhatsApp text with placeholders filled, media,
 * buttons, and the approved Cloud API template with its body parameters filled when it maps to one
 * (the simulator ignores it; a Cloud API account sends only it).
 */
export function composeMessage(template: RawTemplate, target: { name: string; number: string }): OutgoingMessage {
  const body = template.text_wa.trim() ? template.text_wa : plainText(template.text);
  return {
    to: target.number,
    text: renderText(body, target),
    mediaUrl: template.media || null,
    buttons: templateButtons(template),
    template: isMapped(template)
      ? {
          name: template.wa_template_name!.trim(),
          language: template.wa_template_language?.trim() || 'id',
          // Graph refuses an empty parameter (a target without a name), and one with a line break, a tab or more
          // than four spaces in a row (an imported name can have them): whitespace goes as one space.
          bodyParams: templateParams(template.wa_template_params).map((p) => renderText(p, target).replace(/\s+/g, ' ').trim() || '-'),
        }
      : null,
  };
}
