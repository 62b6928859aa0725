import { Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { PageFallback } from './components/layout/PageFallback';
import { page } from './routes';

const Protected = page(() => import('./components/layout/Protected'), 'Protected');
const NotFound = page(() => import('./pages/misc/NotFound'), 'NotFound');
const NotAuthorized = page(() => import('./pages/misc/NotFound'), 'NotAuthorized');

const Home = page(() => import('./pages/dashboard/Home'), 'Home');
const Profile = page(() => import('./pages/profile'), 'Profile');
const WhatsappList = page(() => import('./pages/whatsapp/list'), 'WhatsappList');
const WhatsappCreate = page(() => import('./pages/whatsapp/create'), 'WhatsappCreate');
const BonusList = page(() => import('./pages/bonus/list'), 'BonusList');
const BonusCreate = page(() => import('./pages/bonus/create'), 'BonusCreate');
const ReferralList = page(() => import('./pages/referral/list'), 'ReferralList');
const WithdrawMember = page(() => import('./pages/withdraw/member'), 'WithdrawMember');
const WithdrawRequested = page(() => import('./pages/withdraw/requested'), 'WithdrawRequested');
const GeneratorList = page(() => import('./pages/generator/list'), 'GeneratorList');
const GeneratorCreate = page(() => import('./pages/generator/create'), 'GeneratorCreate');
const ValidatorList = page(() => import('./pages/validator/list'), 'ValidatorList');
const ValidatorCreate = page(() => import('./pages/validator/create'), 'ValidatorCreate');
const BlasterSend = page(() => import('./pages/blaster/send'), 'BlasterSend');
const PhoneNumberList = page(() => import('./pages/phonenumber/list'), 'PhoneNumberList');
const PhoneNumberCreate = page(() => import('./pages/phonenumber/create'), 'PhoneNumberCreate');
const PhoneNumberEdit = page(() => import('./pages/phonenumber/edit'), 'PhoneNumberEdit');
const OptOutList = page(() => import('./pages/phonenumber/optout'), 'OptOutList');
const MessageList = page(() => import('./pages/message/list'), 'MessageList');
const MessageCreate = page(() => import('./pages/message/create'), 'MessageCreate');
const MessageEdit = page(() => import('./pages/message/edit'), 'MessageEdit');
const SettingsForm = page(() => import('./pages/settings/form'), 'SettingsForm');
const MemberList = page(() => import('./pages/member/list'), 'MemberList');
const MemberEdit = page(() => import('./pages/member/edit'), 'MemberEdit');
const ProxyList = page(() => import('./pages/proxy/list'), 'ProxyList');
const ProxyCreate = page(() => import('./pages/proxy/create'), 'ProxyCreate');
const ProxyEdit = page(() => import('./pages/proxy/edit'), 'ProxyEdit');
const LevelList = page(() => import('./pages/level/list'), 'LevelList');
const LevelForm = page(() => import('./pages/level/form'), 'LevelForm');
type MonitorProps = Parameters<(typeof import('./pages/monitor/MonitorPage'))['MonitorPage']>[0];
const MonitorPage = page<'MonitorPage', MonitorProps>(() => import('./pages/monitor/MonitorPage'), 'MonitorPage');
const MonitorRealtime = page(() => import('./pages/monitor/RealtimePage'), 'MonitorRealtime');
const AuditList = page(() => import('./pages/audit/list'), 'AuditList');
const SimPhone = page(() => import('./pages/sim/SimPhone'), 'SimPhone');


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
  { path: '/phonenumber/optout', element: <OptOutList /> },
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

/**
 * Console screens open without signing in: the simulated phone stands for a handset (an open demo may
 * use it anonymously; the server decides) and reaches the API through the data provider like the rest.
 */
export const openConsoleRoutes: Array<{ path: string; element: ReactNode }> = [{ path: '/sim', element: <SimPhone /> }];

/** The console's routes (inside Refine): the protected layout with every screen above. */
export function ConsoleRoutes() {
  return (
    <Suspense fallback={<PageFallback full />}>
      <Routes>
        <Route path="/not-authorized" element={<NotAuthorized />} />
        {openConsoleRoutes.map((r) => (
          <Route key={r.path} path={r.path} element={r.element} />
        ))}
        <Route element={<Protected />}>
          {protectedRoutes.map((r) => (
            <Route key={r.path} path={r.path} element={r.element} />
          ))}
        </Route>
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Suspense>
  );
}
