import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_MESSAGES, errorCodeFor, FIELD_LABELS } from '../../common/errors';
import en from '../../client/src/locales/en/errors.json';
import id from '../../client/src/locales/id/errors.json';

type LocaleErrors = Record<string, string> & { labels: Record<string, string> };
const texts: Record<string, LocaleErrors> = { id: id as unknown as LocaleErrors, en: en as unknown as LocaleErrors };
const names = (s: string, re: RegExp) => [...s.matchAll(re)].map((m) => m[1]).sort();

describe('the error code catalogue', () => {
  it('has an Indonesian and an English text for every code, and no text without a code', () => {
    for (const lang of ['id', 'en']) {
      const file = texts[lang] as Record<string, string>;
      for (const code of ERROR_CODES) expect(file[code], `${lang} ${code}`).toMatch(/\S/);
      // `labels` holds the field labels the patterns carry (FIELD_LABELS), not a code.
      expect(Object.keys(file).filter((k) => k !== 'labels').sort()).toEqual([...ERROR_CODES].sort());
      expect(Object.keys(texts[lang]!.labels).sort(), lang).toEqual(Object.keys(FIELD_LABELS).sort());
    }
  });

  it("uses the same variable parts in the texts as in the server's messages", () => {
    for (const code of ERROR_CODES) {
      const vars = names((ERROR_MESSAGES[code] as readonly string[])[0] ?? '', /\{(\w+)\}/g);
      for (const lang of ['id', 'en']) expect(names((texts[lang] as Record<string, string>)[code] ?? '', /\{\{(\w+)\}\}/g), `${lang} ${code}`).toEqual(vars);
    }
  });

  it('finds the code of exact messages and of field-label messages, not of unknown ones', () => {
    expect(errorCodeFor('User not found')).toEqual({ code: 'user_not_found', params: {} });
    expect(errorCodeFor('That email is already registered.')?.code).toBe('email_taken');
    expect(errorCodeFor('Name is required.')?.code).toBe('name_required');
    expect(errorCodeFor('Info is required.')).toEqual({ code: 'field_required', params: { label: 'Info' } });
    expect(errorCodeFor('Price must be at most 1.000.000.')).toEqual({ code: 'field_at_most', params: { label: 'Price', max: '1.000.000' } });
    expect(errorCodeFor('Something else entirely')).toBeUndefined();
    expect(errorCodeFor(`${'x'.repeat(100_000)} is required.`)).toBeUndefined();
  });
});
