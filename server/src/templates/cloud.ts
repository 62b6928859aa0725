import { z } from 'zod';
import { HttpError } from '../lib/errors';

/** What a Cloud API template body parameter can be filled with, per target. */
export const WA_TEMPLATE_PARAMS = ['{name}', '{phoneNumber}'] as const;
export type WaTemplateParam = (typeof WA_TEMPLATE_PARAMS)[number];
export const MAX_WA_TEMPLATE_PARAMS = 10;

export const WA_NAME_INVALID = 'Nama Template WhatsApp hanya boleh huruf kecil, angka dan garis bawah.';
export const WA_NAME_TOO_LONG = 'Nama Template WhatsApp maksimal 512 karakter.';
export const WA_LANGUAGE_INVALID = 'Bahasa tidak valid (contoh: id, en_US).';
export const WA_LANGUAGE_REQUIRED = 'Bahasa wajib diisi bila Nama Template WhatsApp diisi.';
export const WA_PARAMS_INVALID = 'Parameter template hanya boleh {name} atau {phoneNumber}.';
export const WA_PARAMS_TOO_MANY = `Maksimal ${MAX_WA_TEMPLATE_PARAMS} parameter template.`;

/** Absent stays undefined (an update keeps the stored value); null or blank clears it. */
const optionalText = (v: unknown) => (v === undefined ? undefined : v === null ? null : typeof v === 'string' ? v.trim() || null : v);

export const WaTemplateName = z.preprocess(
  optionalText,
  z.string({ message: WA_NAME_INVALID }).max(512, WA_NAME_TOO_LONG).regex(/^[a-z0-9_]+$/, WA_NAME_INVALID).nullable().optional(),
).optional();

export const WaTemplateLanguage = z.preprocess(
  optionalText,
  z.string({ message: WA_LANGUAGE_INVALID }).regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, WA_LANGUAGE_INVALID).nullable().optional(),
).optional();

/**
 * The body-parameter mapping: an array, or its JSON text (multipart forms). Every problem is reported
 * on the field itself rather than on an entry, so the form shows it under the mapping.
 */
export const WaTemplateParams = z.unknown().transform((input, ctx): WaTemplateParam[] | undefined => {
  if (input === undefined) return undefined;
  let value = input;
  if (value === null || value === '') return [];
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      ctx.addIssue({ code: 'custom', message: WA_PARAMS_INVALID });
      return z.NEVER;
    }
  }
  if (!Array.isArray(value) || !value.every((p): p is WaTemplateParam => (WA_TEMPLATE_PARAMS as readonly unknown[]).includes(p))) {
    ctx.addIssue({ code: 'custom', message: WA_PARAMS_INVALID });
    return z.NEVER;
  }
  if (value.length > MAX_WA_TEMPLATE_PARAMS) {
    ctx.addIssue({ code: 'custom', message: WA_PARAMS_TOO_MANY });
    return z.NEVER;
  }
  return value;
}).optional();

export interface WaTemplate {
  waTemplateName: string | null;
  waTemplateLanguage: string | null;
  waTemplateParams: WaTemplateParam[];
}

export const NO_WA_TEMPLATE: WaTemplate = { waTemplateName: null, waTemplateLanguage: null, waTemplateParams: [] };

/**
 * The Cloud API mapping to store: the fields given over the current ones (absent ones are kept).
 * A template name needs its language: Meta addresses an approved template by both.
 */
export function mergeWaTemplate(
  current: WaTemplate,
  input: { waTemplateName?: string | null; waTemplateLanguage?: string | null; waTemplateParams?: WaTemplateParam[] | undefined },
): WaTemplate {
  const merged: WaTemplate = {
    waTemplateName: input.waTemplateName === undefined ? current.waTemplateName : input.waTemplateName,
    waTemplateLanguage: input.waTemplateLanguage === undefined ? current.waTemplateLanguage : input.waTemplateLanguage,
    waTemplateParams: input.waTemplateParams ?? current.waTemplateParams,
  };
  if (merged.waTemplateName && !merged.waTemplateLanguage) {
    throw new HttpError(422, WA_LANGUAGE_REQUIRED, { errors: { waTemplateLanguage: WA_LANGUAGE_REQUIRED } });
  }
  return merged;
}

/** The stored parameter list (JSON text) back to a list; a damaged value reads as none. */
export function storedWaParams(json: string | null): WaTemplateParam[] {
  try {
    const value: unknown = JSON.parse(json ?? '[]');
    return Array.isArray(value) ? value.filter((p): p is WaTemplateParam => (WA_TEMPLATE_PARAMS as readonly unknown[]).includes(p)) : [];
  } catch {
    return [];
  }
}

/** The import's fields of one item, checked like the form's; a refusal names the item's problem. */
export function importedWaTemplate(item: Record<string, unknown>): WaTemplate {
  const parsed = z
    .object({ waTemplateName: WaTemplateName, waTemplateLanguage: WaTemplateLanguage, waTemplateParams: WaTemplateParams })
    .safeParse({ waTemplateName: item.waTemplateName, waTemplateLanguage: item.waTemplateLanguage, waTemplateParams: item.waTemplateParams });
  if (!parsed.success) throw new HttpError(422, parsed.error.issues[0]?.message ?? WA_PARAMS_INVALID);
  return mergeWaTemplate(NO_WA_TEMPLATE, parsed.data);
}
