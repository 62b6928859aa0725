import { Avatar, Button, Dropdown, Input, Layout, Space, Typography, type InputRef } from 'antd';
import { MenuFoldOutlined, MenuUnfoldOutlined, MoonOutlined, SearchOutlined, SunOutlined, UserOutlined } from '@ant-design/icons';
import { useLogout } from '@refinedev/core';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { menuFor } from '../../../../common/roles';
import type { SessionUser } from '../../lib/session';
import { useClientConfig } from '../../lib/config';
import { useTheme } from './theme';

export function TopBar({ user, collapsed, onToggle }: { user: SessionUser; collapsed: boolean; onToggle: () => void }) {
  const { theme, toggle } = useTheme();
  const { mutate: logout } = useLogout();
  const navigate = useNavigate();
  const search = useRef<InputRef>(null);
  const [term, setTerm] = useState('');
  const { telegramUrl } = useClientConfig();

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

  // The search box jumps to the first menu entry whose label contains the text.
  const jump = () => {
    const t = term.trim().toLowerCase();
    if (!t) return;
    const hit = menuFor(user.role, telegramUrl).find((m) => !m.external && m.label.toLowerCase().includes(t));
    if (hit) {
      navigate(hit.path);
      setTerm('');
    }
  };

  return (
    <Layout.Header
      style={{ display: 'flex', alignItems: 'center', gap: 16, padding: '0 16px', background: theme === 'dark' ? '#1f1f1f' : '#fff', position: 'sticky', top: 0, zIndex: 10, borderBottom: '1px solid rgba(5,5,5,0.06)' }}
    >
      <Button type="text" aria-label="Toggle sidebar" icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />} onClick={onToggle} />
      <Input
        ref={search}
        data-testid="global-search"
        prefix={<SearchOutlined />}
        placeholder="Cari menu… (Ctrl+K)"
        value={term}
        onChange={(e) => setTerm(e.target.value)}
        onPressEnter={jump}
        style={{ maxWidth: 360 }}
        allowClear
      />
      <div style={{ flex: 1 }} />
      <Button
        type="text"
        aria-label="Toggle theme"
        data-testid="theme-toggle"
        icon={theme === 'dark' ? <SunOutlined /> : <MoonOutlined />}
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
            { key: 'edit', label: <Link to="/profile?edit=true">Edit profile</Link> },
            { key: 'profile', label: <Link to="/profile">User Profile</Link> },
            { key: 'signout', label: 'Sign out', onClick: () => logout() },
          ],
        }}
      >
        <Button type="text" data-testid="user-menu" style={{ height: 48 }}>
          <Space>
            <Avatar icon={<UserOutlined />} />
            <span>{user.firstname}</span>
          </Space>
        </Button>
      </Dropdown>
    </Layout.Header>
  );
}
