import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { auditDetail } from '../../client/src/pages/audit/detail';

/** The console's own texts of a language, looked up as the i18n provider does (`area.key.key`). */
function translator(lang: 'id' | 'en') {
  return (key: string, fallback?: string) => {
    const [area, ...rest] = key.split('.');
    let node: unknown = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../client/src/locales', lang, `${area}.json`), 'utf8'));
    for (const part of rest) node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined;
    return typeof node === 'string' ? node : (fallback ?? key);
  };
}

const account = { bank: 'BCA', number: '1234567890', name: 'Budi Setiawan' };

describe('audit details as the Audit Log screen shows them', () => {
  it('shows amounts in rupiah and a bank account as one line', () => {
    expect(auditDetail('withdraw.request', { withdrawId: 3, nominal: 15000, account }, translator('id'))).toBe(
      'withdrawId: 3; nominal: Rp 15.000; account: BCA 1234567890 (Budi Setiawan)',
    );
    expect(auditDetail('bonus.create', { bonusId: 1, nominal: 25000, reason: 'Bonus akhir bulan' }, translator('id'))).toBe(
      'bonusId: 1; nominal: Rp 25.000; reason: Bonus akhir bulan',
    );
  });

  it("names a withdrawal decision's states in the screen's language", () => {
    const details = { withdrawId: 1, nominal: 50000, account, from: 'requested', to: 'accepted' };
    expect(auditDetail('withdraw.status', details, translator('id'))).toBe(
      'withdrawId: 1; nominal: Rp 50.000; account: BCA 1234567890 (Budi Setiawan); Diajukan → Diterima',
    );
    expect(auditDetail('withdraw.status', { ...details, to: 'rejected' }, translator('en'))).toMatch(/; Requested → Rejected$/);
  });

  it('shows a bank change as the account before and after, and an account with nothing set as -', () => {
    const empty = { bank: null, number: null, name: null };
    expect(auditDetail('user.bank', { from: empty, to: account }, translator('id'))).toBe('- → BCA 1234567890 (Budi Setiawan)');
  });

  it('keeps the other changes as they were: changed fields of a pair, scalars before and after', () => {
    const level = { name: 'Gold', blast_fee: 19, requirement_blast: 5000 };
    expect(auditDetail('level.update', { from: level, to: { ...level, blast_fee: 20 } }, translator('id'))).toBe('blast_fee: 19 → 20');
    expect(auditDetail('user.role', { from: 'member', to: 'staff' }, translator('id'))).toBe('member → staff');
    expect(auditDetail('settings.update', { price: { from: 0, to: 77 } }, translator('id'))).toBe('price: 0 → 77');
  });
});
