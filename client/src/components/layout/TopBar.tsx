import { Avatar, Button, Dropdown, Input, Layout, Space, Typography, type InputRef } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined, MoonOutlined, SearchOutlined, SunOutlined, UserOutlined } from '@ant-design/icons';
import { useLogout, useTranslate } from '@refinedev/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { SessionUser } from '../../lib/session';
import { LanguageSwitch, type LanguageButtonProps } from './LanguageSwitch';
import { useSidebarEntries } from './SidebarMenu';
import { useTheme } from './theme';

export function TopBar({ user, collapsed, mobile, onToggle }: { user: SessionUser; collapsed: boolean; mobile: boolean; onToggle: () => void }) {
  const { theme, toggle } = useTheme();
  const { mutate: logout } = useLogout();
  const t = useTranslate();
  const navigate = useNavigate();
  /** A menu entry chosen without clicking its link (Enter or Space on the entry) navigates like the link. */
  const viaKeyboard = (event: React.MouseEvent | React.KeyboardEvent, to: string) => {
    if (!(event.target instanceof Element && event.target.closest('a'))) navigate(to);
  };
  const search = useRef<InputRef>(null);
  const [term, setTerm] = useState('');
  const entries = useSidebarEntries(user.role);

  // Ctrl/Cmd+K focuses the search box.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        search.current?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // The search box jumps to the first menu entry whose label (in the current language) contains the text.
  const jump = () => {
    const q = term.trim().toLowerCase();
    if (!q) return;
    const hit = entries.find((m) => !m.external && m.label.toLowerCase().includes(q));
    if (hit) {
      navigate(hit.path);
      setTerm('');
    }
  };

  return (
    <Layout.Header
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: mobile ? 4 : 16,
        padding: mobile ? '0 8px' : '0 16px',
        background: theme === 'dark' ? '#1f1f1f' : '#fff',
        position: 'sticky',
        top: 0,
        zIndex: 10,
        borderBottom: '1px solid rgba(5,5,5,0.06)',
      }}
    >
      <Button type="text" aria-label={t('layout.toggleSidebar')} aria-expanded={!collapsed} icon={collapsed ? <MenuUnfoldOutlined aria-hidden /> : <MenuFoldOutlined aria-hidden />} onClick={onToggle} />
      <Input
        ref={search}
        data-testid="global-search"
        aria-label={t('layout.search.label')}
        prefix={<SearchOutlined aria-hidden />}
        placeholder={mobile ? t('layout.search.short') : t('layout.search.placeholder')}
        value={term}
        onChange={(e) => setTerm(e.target.value)}
        onPressEnter={jump}
        style={{ maxWidth: 360, minWidth: 0, flex: '1 1 auto' }}
        allowClear
      />
      {!mobile && <div style={{ flex: 1 }} />}
      <LanguageSwitch compact={mobile} Button={LanguageButton} />
      <Button
        type="text"
        aria-label={t('layout.toggleTheme')}
        data-testid="theme-toggle"
        icon={theme === 'dark' ? <SunOutlined aria-hidden /> : <MoonOutlined aria-hidden />}
        onClick={toggle}
      />
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            {
              key: 'who',
              disabled: true,
              label: (
                <div data-testid="user-info">
                  <Typography.Text strong>
                    {user.firstname} {user.lastname}
                  </Typography.Text>
                  <br />
                  <Typography.Text type="secondary">{user.email}</Typography.Text>
                </div>
              ),
            },
            { type: 'divider' },
            // Enter on a focused entry reaches the menu item, not its link: the item goes there itself.
            { key: 'edit', label: <Link to="/profile?edit=true">{t('layout.user.editProfile')}</Link>, onClick: ({ domEvent }) => viaKeyboard(domEvent, '/profile?edit=true') },
            { key: 'profile', label: <Link to="/profile">{t('layout.user.profile')}</Link>, onClick: ({ domEvent }) => viaKeyboard(domEvent, '/profile') },
            { key: 'signout', label: t('layout.user.signOut'), onClick: () => logout() },
          ],
        }}
      >
        <Button type="text" data-testid="user-menu" aria-label={mobile ? t('layout.user.menu') : `${user.firstname} (${t('layout.user.menu')})`} style={{ height: 48, paddingInline: mobile ? 4 : undefined }}>
          <Space>
            <Avatar icon={<UserOutlined aria-hidden />} />
            {!mobile && <span>{user.firstname}</span>}
          </Space>
        </Button>
      </Dropdown>
    </Layout.Header>
  );
}

function LanguageButton({ selected, ...props }: LanguageButtonProps) {
  return <Button size="small" type={selected ? 'primary' : 'text'} aria-pressed={selected} {...props} />;
}
