import { describe, expect, it } from 'vitest';
import en from '../../client/src/locales/en/layout.json';
import id from '../../client/src/locales/id/layout.json';
import enAuth from '../../client/src/locales/en/auth.json';
import idAuth from '../../client/src/locales/id/auth.json';
import enMisc from '../../client/src/locales/en/misc.json';
import idMisc from '../../client/src/locales/id/misc.json';
import enCommon from '../../client/src/locales/en/common.json';
import idCommon from '../../client/src/locales/id/common.json';
import { menuFor, PAGE_ROLES, ROLES } from '../../common/roles';
import { formatCount, formatRupiah } from '../../client/src/lib/format';
import { titleKey } from '../../client/src/components/layout/title';
import { bandOf } from '../../client/src/lib/useViewport';
import { buildResources } from '../../client/src/resources';

/** Every key path of a locale file, 'a.b.c'. */
function keys(o: unknown, prefix = ''): string[] {
  if (!o || typeof o !== 'object') return [prefix];
  return Object.entries(o as Record<string, unknown>).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

function lookup(o: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((cur, k) => (cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined), o);
}

describe('shell locale files', () => {
  it('English is complete: the same keys as Indonesian in every shell area', () => {
    for (const [a, b] of [
      [id, en],
      [idAuth, enAuth],
      [idMisc, enMisc],
      [idCommon, enCommon],
    ] as const) {
      expect(keys(b).sort()).toEqual(keys(a).sort());
    }
  });

  it("the Indonesian sidebar labels are the role table's labels, for every role", () => {
    // The sidebar shows a resource's label (layout.menu.{name}) for each entry of menuFor(role).
    const byPath = Object.fromEntries(buildResources((k) => k).map((r) => [r.list as string, r.name]));
    for (const role of ROLES) {
      for (const entry of menuFor(role, 'https://t.me/x')) {
        if (entry.external) {
          expect(id.menu.telegram).toBe(entry.label);
          continue;
        }
        const name = byPath[entry.path];
        expect(name, `${role} ${entry.path}`).toBeDefined();
        expect(lookup(id.menu, name!), `${role} ${entry.path}`).toBe(entry.label);
      }
    }
  });

  it('every console route has a tab title in both languages', () => {
    for (const path of [...Object.keys(PAGE_ROLES), '/signin', '/signup', '/reset-password', '/terms', '/privacy-policy']) {
      const key = titleKey(path).replace(/^layout\./, '');
      expect(lookup(id, key), path).toEqual(expect.any(String));
      expect(lookup(en, key), path).toEqual(expect.any(String));
    }
  });
});

describe('format helpers', () => {
  it('groups thousands with a dot everywhere', () => {
    expect(formatCount(1152)).toBe('1.152');
    expect(formatCount(1234567)).toBe('1.234.567');
    expect(formatCount(0)).toBe('0');
    expect(formatCount(undefined)).toBe('0');
    expect(formatCount('x')).toBe('0');
    expect(formatRupiah(10000)).toBe('Rp 10.000');
    expect(formatRupiah(null)).toBe('Rp 0');
  });
});

describe('viewport bands', () => {
  it('phones below 768, tablets to 1023, desktops from 1024', () => {
    expect(bandOf(390)).toBe('mobile');
    expect(bandOf(767)).toBe('mobile');
    expect(bandOf(768)).toBe('tablet');
    expect(bandOf(1023)).toBe('tablet');
    expect(bandOf(1024)).toBe('desktop');
  });
});
