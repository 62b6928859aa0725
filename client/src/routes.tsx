import type { ReactNode } from 'react';
import { PageTitle } from './components/PageTitle';
import { Home } from './pages/dashboard/Home';
import { WhatsappList } from './pages/whatsapp/list';
import { WhatsappCreate } from './pages/whatsapp/create';
import { BonusCreate } from './pages/bonus/create';
import { BonusList } from './pages/bonus/list';
import { LevelForm } from './pages/level/form';
import { LevelList } from './pages/level/list';
import { MemberEdit } from './pages/member/edit';
import { MemberList } from './pages/member/list';
import { Profile } from './pages/profile';
import { ReferralList } from './pages/referral/list';
import { SettingsForm } from './pages/settings/form';
import { WithdrawMember } from './pages/withdraw/member';
import { WithdrawRequested } from './pages/withdraw/requested';
import { MonitorPage } from './pages/monitor/MonitorPage';
import { MonitorRealtime } from './pages/monitor/RealtimePage';
import { GeneratorList } from './pages/generator/list';
import { GeneratorCreate } from './pages/generator/create';
import { ValidatorList } from './pages/validator/list';
import { ValidatorCreate } from './pages/validator/create';
import { BlasterSend } from './pages/blaster/send';
import { PhoneNumberList } from './pages/phonenumber/list';
import { PhoneNumberCreate } from './pages/phonenumber/create';
import { PhoneNumberEdit } from './pages/phonenumber/edit';
import { ProxyList } from './pages/proxy/list';
import { ProxyCreate } from './pages/proxy/create';
import { ProxyEdit } from './pages/proxy/edit';
import { MessageList } from './pages/message/list';
import { MessageCreate } from './pages/message/create';
import { MessageEdit } from './pages/message/edit';
import { AuditList } from './pages/audit/list';

/** A screen a later change builds; until then it shows its spec title. */
const Titled = ({ title }: { title: string }) => <PageTitle title={title} />;

/** Every protected screen, by path. Guards come from common/roles.ts. */
export const protectedRoutes: Array<{ path: string; element: ReactNode }> = [
  { path: '/', element: <Home /> },
  { path: '/dashboard', element: <Home /> },
  { path: '/profile', element: <Profile /> },
  { path: '/whatsapp', element: <WhatsappList /> },
  { path: '/member/whatsapp', element: <WhatsappList /> },
  { path: '/whatsapp/create', element: <WhatsappCreate /> },
  { path: '/bonus', element: <BonusList /> },
  { path: '/bonus/create', element: <BonusCreate /> },
  { path: '/referral', element: <ReferralList /> },
  { path: '/withdraw', element: <WithdrawMember /> },
  { path: '/withdraw/requested', element: <WithdrawRequested /> },
  { path: '/generator/list', element: <GeneratorList /> },
  { path: '/generator/create', element: <GeneratorCreate /> },
  { path: '/validator/list', element: <ValidatorList /> },
  { path: '/validator/create', element: <ValidatorCreate /> },
  { path: '/blaster', element: <BlasterSend /> },
  { path: '/phonenumber', element: <PhoneNumberList /> },
  { path: '/phonenumber/create', element: <PhoneNumberCreate /> },
  { path: '/phonenumber/edit', element: <PhoneNumberEdit /> },
  { path: '/message', element: <MessageList /> },
  { path: '/message/create', element: <MessageCreate /> },
  { path: '/message/edit', element: <MessageEdit /> },
  { path: '/settings', element: <SettingsForm /> },
  { path: '/member', element: <MemberList /> },
  { path: '/member/edit', element: <MemberEdit /> },
  { path: '/proxy', element: <ProxyList /> },
  { path: '/proxy/create', element: <ProxyCreate /> },
  { path: '/proxy/edit', element: <ProxyEdit /> },
  { path: '/level', element: <LevelList /> },
  { path: '/level/create', element: <LevelForm key="create" /> },
  { path: '/level/edit', element: <LevelForm key="edit" /> },
  { path: '/audit', element: <AuditList /> },
  { path: '/monitor/local', element: <MonitorPage kind="local" /> },
  { path: '/monitor/remote', element: <MonitorPage kind="remote" /> },
  { path: '/monitor/socket', element: <MonitorPage kind="socket" /> },
  { path: '/monitor/realtime', element: <MonitorRealtime /> },
];
