import type { ReactNode } from 'react';
import { PageTitle } from './components/PageTitle';
import { Home } from './pages/dashboard/Home';

/** A screen a later change builds; until then it shows its spec title. */
const Titled = ({ title }: { title: string }) => <PageTitle title={title} />;

/** Every protected screen, by path. Guards come from common/roles.ts. */
export const protectedRoutes: Array<{ path: string; element: ReactNode }> = [
  { path: '/', element: <Home /> },
  { path: '/dashboard', element: <Home /> },
  { path: '/profile', element: <Titled title="User Profile" /> },
  { path: '/whatsapp', element: <Titled title="Daftar Whatsapp" /> },
  { path: '/member/whatsapp', element: <Titled title="Daftar Whatsapp" /> },
  { path: '/whatsapp/create', element: <Titled title="Tambah Akun Whatsapp" /> },
  { path: '/bonus', element: <Titled title="Daftar Bonus" /> },
  { path: '/bonus/create', element: <Titled title="Kirim Bonus" /> },
  { path: '/referral', element: <Titled title="Daftar Referal" /> },
  { path: '/withdraw', element: <Titled title="Withdraw" /> },
  { path: '/withdraw/requested', element: <Titled title="Permintaan Withdraw" /> },
  { path: '/generator/list', element: <Titled title="Daftar Generator" /> },
  { path: '/generator/create', element: <Titled title="Tambah Akun Generator" /> },
  { path: '/validator/list', element: <Titled title="Daftar Validator" /> },
  { path: '/validator/create', element: <Titled title="Tambah Akun Validator" /> },
  { path: '/blaster', element: <Titled title="Blaster Whatsapp Message" /> },
  { path: '/phonenumber', element: <Titled title="Daftar Phone Number" /> },
  { path: '/phonenumber/create', element: <Titled title="Tambah Phone Number" /> },
  { path: '/phonenumber/edit', element: <Titled title="Edit Phone Number" /> },
  { path: '/message', element: <Titled title="Template Pesan Blaster" /> },
  { path: '/message/create', element: <Titled title="Tambah Template Pesan" /> },
  { path: '/message/edit', element: <Titled title="Edit Template Pesan" /> },
  { path: '/settings', element: <Titled title="Form Pengaturan" /> },
  { path: '/member', element: <Titled title="Daftar Member" /> },
  { path: '/member/edit', element: <Titled title="Edit Member" /> },
  { path: '/proxy', element: <Titled title="Daftar Proxy" /> },
  { path: '/proxy/create', element: <Titled title="Tambah Proxy" /> },
  { path: '/proxy/edit', element: <Titled title="Edit Proxy" /> },
  { path: '/level', element: <Titled title="Daftar Level" /> },
  { path: '/level/create', element: <Titled title="Tambah Level" /> },
  { path: '/level/edit', element: <Titled title="Edit Level" /> },
  { path: '/monitor/local', element: <Titled title="Monitor Local" /> },
  { path: '/monitor/remote', element: <Titled title="Monitor Remote" /> },
  { path: '/monitor/socket', element: <Titled title="Monitor Socket" /> },
  { path: '/monitor/realtime', element: <Titled title="Monitor Realtime" /> },
];
