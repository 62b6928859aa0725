import { describe, expect, it } from 'vitest';
import { canOpenPage, menuFor, type Role } from '../../common/roles';

describe('referral screen', () => {
  it('opens for members only', () => {
    const allowed = (['member', 'admin', 'dev', 'staff'] as Role[]).filter((r) => canOpenPage(r, '/referral'));
    expect(allowed).toEqual(['member']);
  });

  it('is in the member menu and in no other', () => {
    for (const role of ['admin', 'dev', 'staff'] as Role[]) expect(menuFor(role, 'https://t.me/x').map((m) => m.path)).not.toContain('/referral');
    expect(menuFor('member', 'https://t.me/x').find((m) => m.path === '/referral')?.label).toBe('Pengguna Referal');
  });
});
