import {
  AppstoreOutlined,
  AuditOutlined,
  CheckCircleOutlined,
  DashboardOutlined,
  DollarOutlined,
  GiftOutlined,
  GlobalOutlined,
  MessageOutlined,
  MonitorOutlined,
  PhoneOutlined,
  SendOutlined,
  SettingOutlined,
  StopOutlined,
  ShareAltOutlined,
  TeamOutlined,
  TrophyOutlined,
  UserOutlined,
  WhatsAppOutlined,
} from '@ant-design/icons';
import type { ResourceProps } from '@refinedev/core';
import type { ReactNode } from 'react';

interface Area {
  name: string;
  list: string;
  create?: string;
  edit?: string;
  icon: ReactNode;
}

/**
 * One resource per area with the spec's paths. Edit screens are `/proxy/edit/:id` to Refine (its routes
 * name an id only as a path segment); providers/router.ts turns that into the spec's `/proxy/edit?id=`
 * in every link and navigation, and reads `?id=` back as the record's id. Names equal identifiers, so the data provider always receives the name a
 * page asked for. The two withdraw screens are two resources because the menus list them apart.
 */
const AREAS: Area[] = [
  { name: 'dashboard', list: '/', icon: <DashboardOutlined aria-hidden /> },
  { name: 'phonenumber', list: '/phonenumber', create: '/phonenumber/create', edit: '/phonenumber/edit/:id', icon: <PhoneOutlined aria-hidden /> },
  // Reached from the phone-number list's header; no sidebar entry (the menus are the spec's, common/roles.ts).
  { name: 'optout', list: '/phonenumber/optout', icon: <StopOutlined aria-hidden /> },
  { name: 'member', list: '/member', edit: '/member/edit/:id', icon: <TeamOutlined aria-hidden /> },
  { name: 'whatsapp', list: '/whatsapp', create: '/whatsapp/create', icon: <WhatsAppOutlined aria-hidden /> },
  { name: 'generator', list: '/generator/list', create: '/generator/create', icon: <AppstoreOutlined aria-hidden /> },
  { name: 'validator', list: '/validator/list', create: '/validator/create', icon: <CheckCircleOutlined aria-hidden /> },
  { name: 'message', list: '/message', create: '/message/create', edit: '/message/edit/:id', icon: <MessageOutlined aria-hidden /> },
  { name: 'withdraw', list: '/withdraw', icon: <DollarOutlined aria-hidden /> },
  { name: 'withdraw-requested', list: '/withdraw/requested', icon: <DollarOutlined aria-hidden /> },
  { name: 'bonus', list: '/bonus', create: '/bonus/create', icon: <GiftOutlined aria-hidden /> },
  { name: 'referral', list: '/referral', icon: <ShareAltOutlined aria-hidden /> },
  { name: 'level', list: '/level', create: '/level/create', edit: '/level/edit/:id', icon: <TrophyOutlined aria-hidden /> },
  { name: 'proxy', list: '/proxy', create: '/proxy/create', edit: '/proxy/edit/:id', icon: <GlobalOutlined aria-hidden /> },
  { name: 'settings', list: '/settings', icon: <SettingOutlined aria-hidden /> },
  { name: 'blaster', list: '/blaster', icon: <SendOutlined aria-hidden /> },
  { name: 'monitor', list: '/monitor/local', icon: <MonitorOutlined aria-hidden /> },
  { name: 'audit', list: '/audit', icon: <AuditOutlined aria-hidden /> },
  { name: 'profile', list: '/profile', icon: <UserOutlined aria-hidden /> },
];

/** The resources with their labels in the current language (`layout.menu.{name}`). */
export function buildResources(t: (key: string) => string): ResourceProps[] {
  return AREAS.map(({ name, list, create, edit, icon }) => ({
    name,
    list,
    ...(create ? { create } : {}),
    ...(edit ? { edit } : {}),
    meta: { label: t(`layout.menu.${name}`), icon },
  }));
}
